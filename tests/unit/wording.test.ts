import { describe, expect, it } from "vitest";
import { describeSummary } from "@/lib/dashboard/trace-summary";
import { nounFor, plural } from "@/lib/wording";

describe("plural", () => {
  it("says one thing in the singular and any other count in the plural, digits grouped", () => {
    expect(plural(1, "provider")).toBe("1 provider");
    expect(plural(0, "answer")).toBe("0 answers");
    expect(plural(2_000, "request")).toBe("2,000 requests");
    expect(plural(3, "entry", "entries")).toBe("3 entries");
    expect(nounFor(1, "answer")).toBe("answer");
  });

  it("is what a trace's one-line summary counts with", () => {
    expect(describeSummary({ results: 1, failed: ["exa"] })).toBe("1 result · 1 provider failed");
    expect(describeSummary({ answers: [{}] })).toBe("1 answer");
    expect(
      describeSummary({
        results: 10,
        skipped: [{ provider: "exa", reason: "low_contribution" }],
        auto: "planned",
      }),
    ).toBe("10 results · 1 provider skipped · auto: planned");
  });
});
