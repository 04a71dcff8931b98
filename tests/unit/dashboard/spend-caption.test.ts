/** The Budgets page's caption of its spend chart, computed from the days and the cap the chart draws. */
import { describe, expect, it } from "vitest";
import { spendCaption } from "@/lib/dashboard/budgets";

const days = (...usd: number[]) => usd.map((amount) => ({ usd: amount }));

describe("spendCaption", () => {
  it("gives the total and the most in one day of the days drawn, and the daily cap the dashed line marks", () => {
    expect(spendCaption(days(0, 1.25, 0.5, 0), 2)).toBe(
      "$1.75 in the last 4 days, at most $1.25 in a day; the dashed line is the daily cap across all providers, $2.00.",
    );
  });

  it("keeps a small spend's digits rather than rounding it to nothing", () => {
    expect(spendCaption(days(0.004, 0.004), undefined)).toBe(
      "$0.0080 in the last 2 days, at most $0.0040 in a day; no daily cap across all providers (a USD budget per UTC day for all providers draws one here).",
    );
  });

  it("says nothing was spent when the days drawn spent nothing, whatever the cap", () => {
    expect(spendCaption(days(0, 0, 0), 5)).toBe(
      "Nothing spent in the last 3 days; the dashed line is the daily cap across all providers, $5.00.",
    );
  });

  it("counts one day as one", () => {
    expect(spendCaption(days(0.5), undefined)).toMatch(
      /^\$0\.50 in the last 1 day, at most \$0\.50 in a day; no daily cap/,
    );
  });
});
