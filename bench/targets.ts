/**
 * Every benchmark target, in one place (issues #9 and #19; the engine rows from the earlier engine
 * benchmarks).
 * Each is checked against a figure of one scenario's result and printed next to it as met or missed.
 * Throughput targets assume 50 connections on 2 cores, with the load generator on the same machine.
 * Cached throughput is held against GET /api/health of the same run (the framework's floor on this
 * machine), and unloaded latency on one connection, since a closed loop obeys Little's law (latency ≈
 * connections / throughput). The fan-out overhead is what the product adds above its slowest provider.
 */
import type { ScenarioId, ScenarioResult } from "./scenarios/scenario";

export interface Target {
  scenario: ScenarioId;
  label: string;
  /** The figure the target is about. */
  value(result: ScenarioResult): number | undefined;
  limit: number;
  /** "min": the figure must reach the limit; "max": it must not exceed it. */
  kind: "min" | "max";
}

const p50 = (r: ScenarioResult) => r.latencyMs.p50;
const p99 = (r: ScenarioResult) => r.latencyMs.p99;
const worst = (r: ScenarioResult) => r.latencyMs.max;
const p95 = (r: ScenarioResult) => r.latencyMs.p95;
const rss = (r: ScenarioResult) => r.peakRssMb;
const vsHealth = (r: ScenarioResult) => r.throughputVsBaseline;
const rssGrowth = (r: ScenarioResult) => r.rssGrowthPercent;

/** RSS under load of the `next start` process, checked on every server scenario. */
export const SERVER_RSS_LIMIT_MB = 400;

export const TARGETS: readonly Target[] = [
  { scenario: "cached-rest", label: "≥ 0.9× health req/s", value: vsHealth, limit: 0.9, kind: "min" },
  { scenario: "cached-rest-single", label: "p50 ≤ 5 ms", value: p50, limit: 5, kind: "max" },
  { scenario: "cached-mcp", label: "≥ 0.85× health calls/s", value: vsHealth, limit: 0.85, kind: "min" },
  { scenario: "cached-mcp-2026", label: "≥ 0.85× health calls/s", value: vsHealth, limit: 0.85, kind: "min" },
  { scenario: "fanout", label: "overhead p50 ≤ 10 ms", value: p50, limit: 10, kind: "max" },
  { scenario: "fanout", label: "overhead p95 ≤ 20 ms", value: p95, limit: 20, kind: "max" },
  { scenario: "fanout-single", label: "overhead p50 ≤ 10 ms", value: p50, limit: 10, kind: "max" },
  { scenario: "fanout-single", label: "overhead p95 ≤ 20 ms", value: p95, limit: 20, kind: "max" },
  { scenario: "fanout-engine", label: "engine p50 ≤ 5 ms", value: p50, limit: 5, kind: "max" },
  { scenario: "fanout-engine", label: "engine p99 ≤ 20 ms", value: p99, limit: 20, kind: "max" },
  { scenario: "hung-provider", label: "≤ timeout_ms + 50 ms", value: worst, limit: 50, kind: "max" },
  { scenario: "fetch", label: "p50 ≤ 45 ms", value: p50, limit: 45, kind: "max" },
  { scenario: "fetch-engine", label: "p50 ≤ 45 ms", value: p50, limit: 45, kind: "max" },
  { scenario: "fusion", label: "p99 ≤ 2 ms", value: p99, limit: 2, kind: "max" },
  {
    scenario: "failing-provider",
    label: "cache hit ratio of the repeats ≥ 95 %",
    value: (r) => r.cost && r.cost.cacheHitRatio * 100,
    limit: 95,
    kind: "min",
  },
  {
    scenario: "failing-provider",
    label: "each paid provider called once in 20 searches",
    value: (r) => r.cost?.callsPerPaidProvider,
    limit: 1,
    kind: "max",
  },
  {
    scenario: "log-cost",
    label: "≥ 0.9× the lines/s of before",
    value: (r) => r.throughputVsBaseline,
    limit: 0.9,
    kind: "min",
  },
  {
    scenario: "auto-fanout",
    label: "auto nDCG@10 ≥ 98 % of fanout's",
    value: (r) => r.quality && r.quality.ndcgRatio * 100,
    limit: 98,
    kind: "min",
  },
  {
    scenario: "auto-fanout",
    label: "auto paid calls ≤ 50 % of fanout's",
    value: (r) => r.quality && r.quality.paidCallsRatio * 100,
    limit: 50,
    kind: "max",
  },
  { scenario: "soak", label: "RSS flat (≤ +5 % after warm-up)", value: rssGrowth, limit: 5, kind: "max" },
  ...(
    [
      "floor",
      "health",
      "cached-rest",
      "cached-rest-single",
      "cached-mcp",
      "cached-mcp-2026",
      "fanout",
      "fanout-single",
      "hung-provider",
      "fetch",
      "soak",
    ] as const
  ).map(
    (scenario): Target => ({
      scenario,
      label: `RSS ≤ ${SERVER_RSS_LIMIT_MB} MB`,
      value: rss,
      limit: SERVER_RSS_LIMIT_MB,
      kind: "max",
    }),
  ),
];

export interface TargetCheck {
  label: string;
  value: number | undefined;
  met: boolean;
}

export function checkTargets(result: ScenarioResult): TargetCheck[] {
  return TARGETS.filter((t) => t.scenario === result.id).map((t) => {
    const value = t.value(result);
    const met =
      value !== undefined && !Number.isNaN(value) && (t.kind === "min" ? value >= t.limit : value <= t.limit);
    return { label: t.label, value, met };
  });
}
