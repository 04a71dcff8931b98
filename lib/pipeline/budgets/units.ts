/** USD amounts travel as dollars in APIs and as integer micro-dollars in the database. */
const MICROS_PER_USD = 1_000_000;

export const usdToMicros = (usd: number) => Math.round(usd * MICROS_PER_USD);
export const microsToUsd = (micros: number) => micros / MICROS_PER_USD;

/** A limit or usage as the API shows it: requests as counts, usd in dollars. */
export const displayAmount = (metric: "requests" | "usd", stored: number) =>
  metric === "usd" ? microsToUsd(stored) : stored;
