/**
 * What every benchmark scenario reports: one latency distribution (of the figure that scenario is
 * about), throughput, errors and peak RSS, plus a ratio to a baseline measured in the same run where one
 * makes sense. Targets (bench/targets.ts) are checked against these fields.
 */
import type { Percentiles } from "@/tests/reliability/support/stats";

export interface ScenarioResult {
  id: ScenarioId;
  title: string;
  /** What `latencyMs` measures, e.g. "request latency" or "latency above the slowest provider". */
  figure: string;
  latencyMs: Percentiles;
  samples: number;
  requestsPerSecond?: number;
  errors: number;
  peakRssMb?: number;
  /** Whose RSS: the `next start` server process, or this benchmark's own process (in-process scenarios). */
  rssOf: "server" | "bench";
  /** A ratio to a baseline of the same run, e.g. "0.62× health req/s". */
  ratio?: string;
  /** Soak: RSS growth from the second quarter of the run to the last, in percent. */
  rssGrowthPercent?: number;
  /**
   * Requests per second as a multiple of the baseline's in the same run: GET /api/health for the HTTP rows,
   * the logger as it was before #29 for log-cost.
   */
  throughputVsBaseline?: number;
  notes?: string;
  /**
   * Round trips per call the server made to the database and to KV (with --rtt: counted by the delay
   * relays in front of them; work after the response, such as trace writes, included).
   */
  roundTripsPerCall?: { database: number; kv: number };
  /**
   * What the calls bought: paid provider calls per call, how many times each paid provider was called in all,
   * and the share of calls answered from the cache.
   */
  cost?: { paidCallsPerCall: number; callsPerPaidProvider: number; cacheHitRatio: number };
  /** Search quality against paid calls: nDCG@10 and paid provider calls per search, of two modes. */
  quality?: {
    ndcgFanout: number;
    ndcgAuto: number;
    ndcgRatio: number;
    paidCallsFanout: number;
    paidCallsAuto: number;
    paidCallsRatio: number;
  };
}

export type ScenarioId =
  | "floor"
  | "health"
  | "cached-rest"
  | "cached-rest-single"
  | "cached-mcp"
  | "cached-mcp-2026"
  | "fanout"
  | "fanout-single"
  | "fanout-engine"
  | "hung-provider"
  | "fetch"
  | "fetch-engine"
  | "large-pages"
  | "fusion"
  | "admissions"
  | "failing-provider"
  | "log-cost"
  | "auto-fanout"
  | "soak";
