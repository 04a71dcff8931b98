/**
 * Every benchmark target, in one place (issue #9; the engine rows from the earlier engine benchmarks).
 * Each is checked against a figure of one scenario's result and printed next to it as met or missed.
 * Throughput targets assume 50 connections on 2 cores, with the load generator on the same machine.
 * A closed loop obeys Little's law (latency ≈ connections / throughput): p50 ≤ 5 ms at 50 connections
 * implies about 10,000 req/s, so the cached REST search is also measured on one connection (no target
 * there), which shows the unloaded latency.
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

const rps = (r: ScenarioResult) => r.requestsPerSecond;
const p50 = (r: ScenarioResult) => r.latencyMs.p50;
const p99 = (r: ScenarioResult) => r.latencyMs.p99;
const worst = (r: ScenarioResult) => r.latencyMs.max;
const rss = (r: ScenarioResult) => r.peakRssMb;

/** RSS under load of the `next start` process, checked on every server scenario. */
export const SERVER_RSS_LIMIT_MB = 400;

export const TARGETS: readonly Target[] = [
  { scenario: "cached-rest", label: "≥ 1,500 req/s", value: rps, limit: 1_500, kind: "min" },
  { scenario: "cached-rest", label: "p50 ≤ 5 ms", value: p50, limit: 5, kind: "max" },
  { scenario: "cached-mcp", label: "≥ 800 calls/s", value: rps, limit: 800, kind: "min" },
  { scenario: "fanout", label: "overhead p50 ≤ 15 ms", value: p50, limit: 15, kind: "max" },
  { scenario: "fanout-single", label: "overhead p50 ≤ 15 ms", value: p50, limit: 15, kind: "max" },
  { scenario: "fanout-engine", label: "engine p50 ≤ 5 ms", value: p50, limit: 5, kind: "max" },
  { scenario: "fanout-engine", label: "engine p99 ≤ 20 ms", value: p99, limit: 20, kind: "max" },
  { scenario: "hung-provider", label: "≤ timeout_ms + 50 ms", value: worst, limit: 50, kind: "max" },
  { scenario: "fetch", label: "p50 ≤ 60 ms", value: p50, limit: 60, kind: "max" },
  { scenario: "fetch-engine", label: "p50 ≤ 60 ms", value: p50, limit: 60, kind: "max" },
  { scenario: "fusion", label: "p99 ≤ 2 ms", value: p99, limit: 2, kind: "max" },
  ...(
    ["health", "cached-rest", "cached-mcp", "fanout", "fanout-single", "hung-provider", "fetch"] as const
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
