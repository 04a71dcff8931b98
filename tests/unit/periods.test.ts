import { describe, expect, it } from "vitest";
import { periodKey, periodResetsAt } from "@/lib/pipeline/budgets/periods";

const at = (iso: string) => new Date(iso);

describe("budget periods (UTC)", () => {
  it.each([
    ["day", "2026-11-22T23:59:59Z", 1, "day:2026-11-22"],
    ["day", "2026-11-23T00:00:00Z", 1, "day:2026-11-23"],
    ["month", "2026-01-31T23:59:59Z", 1, "month:2026-01-01"],
    ["month", "2026-02-01T00:00:00Z", 1, "month:2026-02-01"],
    ["month", "2026-11-14T12:00:00Z", 15, "month:2026-10-15"],
    ["month", "2026-11-15T00:00:00Z", 15, "month:2026-11-15"],
    ["month", "2026-02-28T00:00:00Z", 30, "month:2026-02-28"],
    ["month", "2026-02-27T23:59:59Z", 30, "month:2026-01-30"],
    ["month", "2028-02-29T00:00:00Z", 31, "month:2028-02-29"],
    ["month", "2026-01-10T00:00:00Z", 15, "month:2025-12-15"],
    ["lifetime", "2026-11-22T00:00:00Z", 1, "lifetime"],
  ] as const)("%s at %s (anchor %d) is %s", (period, iso, anchor, key) => {
    expect(periodKey(period, at(iso), anchor)).toBe(key);
  });

  it.each([
    ["day", "2026-12-31T10:00:00Z", 1, "2027-01-01T00:00:00.000Z"],
    ["month", "2026-12-31T10:00:00Z", 1, "2027-01-01T00:00:00.000Z"],
    ["month", "2026-01-30T10:00:00Z", 30, "2026-02-28T00:00:00.000Z"],
    ["month", "2026-02-28T10:00:00Z", 30, "2026-03-30T00:00:00.000Z"],
  ] as const)("%s at %s (anchor %d) resets at %s", (period, iso, anchor, reset) => {
    expect(periodResetsAt(period, at(iso), anchor)?.toISOString()).toBe(reset);
  });

  it("never resets a lifetime budget", () => {
    expect(periodResetsAt("lifetime", at("2026-01-01T00:00:00Z"))).toBeNull();
  });
});
