/**
 * Throughput scenarios against the server with autocannon: an unknown /api path (the framework's floor: a
 * route handler that reads nothing), GET /api/health (the baseline every other HTTP figure is compared
 * with), a cached REST search and a cached MCP web_search in both protocol eras, each at a fixed
 * number of connections for a fixed time, with the server's peak RSS meanwhile.
 */

import type { BenchTarget } from "@/bench/support/bench-target";
import { type LoadCall, runLoad } from "@/tests/reliability/support/load";
import { peakRssDuring } from "@/tests/reliability/support/process-memory";
import type { ScenarioId, ScenarioResult } from "./scenario";

export interface ThroughputOptions {
  connections: number;
  durationSeconds: number;
}

export async function throughput(
  target: BenchTarget,
  /** `status`: what every call should answer (200 unless said). */
  scenario: { id: ScenarioId; title: string; call: LoadCall; status?: number },
  options: ThroughputOptions,
  baseline?: ScenarioResult,
): Promise<ScenarioResult> {
  const { result: report, peakMb } = await peakRssDuring(target.pid, () =>
    runLoad({
      urls: [target.url],
      connections: options.connections,
      durationSeconds: options.durationSeconds,
      mix: [scenario.call],
    }),
  );
  const errors = report.errors.length + (report.answered - (report.statuses[scenario.status ?? 200] ?? 0));
  const ratio =
    baseline?.requestsPerSecond && baseline.latencyMs.p50
      ? `${(report.requestsPerSecond / baseline.requestsPerSecond).toFixed(2)}× health req/s, ` +
        `p50 ${(report.latencyMs.p50 / baseline.latencyMs.p50).toFixed(2)}× health`
      : undefined;
  return {
    id: scenario.id,
    title: scenario.title,
    figure: `request latency, ${options.connections} connection${options.connections === 1 ? "" : "s"}`,
    latencyMs: report.latencyMs,
    samples: report.answered,
    requestsPerSecond: report.requestsPerSecond,
    errors,
    peakRssMb: peakMb,
    rssOf: "server",
    ratio,
    throughputVsBaseline: baseline?.requestsPerSecond
      ? report.requestsPerSecond / baseline.requestsPerSecond
      : undefined,
  };
}
