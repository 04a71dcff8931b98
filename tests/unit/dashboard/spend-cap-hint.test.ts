/** The overview's line on the monthly spend cap across all providers. */
import { describe, expect, it } from "vitest";
import { spendCapHint } from "@/lib/dashboard/budgets";

const budget = (provider: string, metric: "requests" | "usd", period: "day" | "month" | "lifetime") => ({
  provider,
  metric,
  period,
  limit: 10,
  remaining: 9.4,
});

describe("spendCapHint", () => {
  it("names the monthly USD cap across all providers and what is left of it", () => {
    expect(spendCapHint([budget("brave", "usd", "month"), budget("*", "usd", "month")])).toBe(
      "Cap $10.00 a month · $9.40 left",
    );
  });

  it("says there is none when no budget caps all providers' monthly spend", () => {
    expect(
      spendCapHint([
        budget("brave", "usd", "month"),
        budget("*", "usd", "day"),
        budget("*", "requests", "month"),
      ]),
    ).toBe("Provider costs · no monthly cap");
  });
});
