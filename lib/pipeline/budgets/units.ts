/** USD amounts travel as dollars in APIs and as integer micro-dollars in the database. */
import { usdToMicros } from "@/lib/engine/shared/price";

export { usdToMicros };

export const microsToUsd = (micros: number) => micros / 1_000_000;

/** A limit or usage as the API shows it: requests as counts, usd in dollars. */
export const displayAmount = (metric: "requests" | "usd", stored: number) =>
  metric === "usd" ? microsToUsd(stored) : stored;
