import { describe, expect, it } from "vitest";
import { chartMax, dayTicks, niceTicks } from "@/lib/dashboard/chart-ticks";

describe("niceTicks", () => {
  it("steps by 1, 2, 2.5 or 5 times a power of ten up to just above the largest value", () => {
    expect(niceTicks(1234)).toEqual([0, 500, 1000, 1500]);
    expect(niceTicks(0.0153)).toEqual([0, 0.005, 0.01, 0.015, 0.02]);
    expect(niceTicks(1)).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(niceTicks(87)).toEqual([0, 25, 50, 75, 100]);
  });

  it("keeps counts whole", () => {
    expect(niceTicks(3, { integer: true })).toEqual([0, 1, 2, 3]);
    expect(niceTicks(7, { integer: true })).toEqual([0, 2, 4, 6, 8]);
    expect(niceTicks(9, { integer: true })).toEqual([0, 5, 10]);
    expect(niceTicks(0, { integer: true })).toEqual([0, 1]);
  });

  it("draws an axis up to 1 when there is nothing to show", () => {
    expect(niceTicks(0)).toEqual([0, 0.25, 0.5, 0.75, 1]);
  });
});

describe("dayTicks", () => {
  it("labels a date every week, ending on the latest", () => {
    const dates = Array.from({ length: 30 }, (_, i) => `2025-11-${String(i + 1).padStart(2, "0")}`);
    expect(dayTicks(dates)).toEqual(["2025-11-02", "2025-11-09", "2025-11-16", "2025-11-23", "2025-11-30"]);
  });
});

describe("chartMax", () => {
  it("adds stacked series per row and takes others alone", () => {
    const rows = [
      { date: "a", cache: 2, providers: 3, usd: 1 },
      { date: "b", cache: 1, providers: 1, usd: 6 },
    ];
    const stacked = [
      { key: "cache", stack: "calls" },
      { key: "providers", stack: "calls" },
    ];
    expect(chartMax(rows, stacked)).toBe(5);
    expect(chartMax(rows, [...stacked, { key: "usd" }])).toBe(6);
  });
});
