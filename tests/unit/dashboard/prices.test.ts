import { describe, expect, it } from "vitest";
import { freeTierDraft, freeTierSize, inTierUnit } from "@/lib/dashboard/free-tier";
import { extraResultsPrice, perCallPrice } from "@/lib/dashboard/prices";
import { listedPrice } from "@/lib/providers/prices";

describe("the price table on the Budgets page", () => {
  it("says what a call costs and what results beyond those included cost", () => {
    expect(perCallPrice(listedPrice("exa"))).toBe("$0.007");
    expect(extraResultsPrice(listedPrice("exa"))).toBe("$0.001 each beyond 10");
    expect(extraResultsPrice(listedPrice("firecrawl"))).toBe("$0.0106 per 10 beyond 10");
    expect(extraResultsPrice(listedPrice("brave"))).toBe("–");
    expect(perCallPrice(listedPrice("perplexity/answer"))).toBe("$0.005 + $1.00 / $1.00 per M tokens");
    expect(perCallPrice(listedPrice("duckduckgo"))).toBe("free");
  });
});

describe("free tiers in the dashboard", () => {
  it("read in dollars for a tier of credit and in counts for a tier of requests", () => {
    expect(freeTierSize({ usd: 5, period: "month" })).toBe("$5.00 per month");
    expect(freeTierSize({ requests: 2500, period: "lifetime" })).toBe("2,500 once");
    expect(inTierUnit({ usd: 5, period: "month" }, 4.995)).toBe("$4.995");
    expect(inTierUnit({ usd: 5, period: "month" }, 4.9)).toBe("$4.90");
  });

  it("fill in a budget of dollars for a tier of credit, of requests for a tier of requests", () => {
    expect(freeTierDraft("brave", { usd: 5, period: "month" })).toEqual({
      provider: "brave",
      metric: "usd",
      period: "month",
      limit: "5",
      soft: "4",
    });
    expect(freeTierDraft("serper", { requests: 2500, period: "lifetime" })).toMatchObject({
      metric: "requests",
      limit: "2500",
      soft: "2000",
    });
  });
});
