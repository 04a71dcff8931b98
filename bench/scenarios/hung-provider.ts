/**
 * One provider of the fan-out never answers: how long after `timeout_ms` does the search come back? Calls run
 * one at a time and the hung provider rotates, so no provider fails often enough in a row to trip its
 * circuit breaker (which would skip it and hide the hang). The figure is latency minus timeout_ms.
 */

import { type BenchTarget, PROVIDER_LATENCY_MS } from "@/bench/support/bench-target";
import { timedCalls } from "@/bench/support/timed-calls";
import { peakRssDuring } from "@/tests/reliability/support/process-memory";
import { percentiles } from "@/tests/reliability/support/stats";
import type { ScenarioResult } from "./scenario";

const HUNG_TIMEOUT_MS = 1_000;

interface SearchReply {
  providers_failed?: Array<{ provider: string; reason: string }>;
}

export async function hungProvider(
  target: BenchTarget,
  token: string,
  calls: number,
): Promise<ScenarioResult> {
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const { result: run, peakMb } = await peakRssDuring(target.pid, () =>
    timedCalls(calls, 1, async (i) => {
      const hung = target.providers[i % target.providers.length] ?? "brave";
      target.fake.setScenario(hung, { fault: "hang" });
      try {
        const response = await fetch(`${target.url}/api/v1/search`, {
          method: "POST",
          headers,
          body: JSON.stringify({
            query: `hung bench ${i} ${Date.now()}`,
            providers: target.providers,
            no_cache: true,
            timeout_ms: HUNG_TIMEOUT_MS,
          }),
        });
        const reply = (await response.json()) as SearchReply;
        const failed = reply.providers_failed ?? [];
        return (
          response.ok && failed.length === 1 && failed[0]?.provider === hung && failed[0].reason === "timeout"
        );
      } finally {
        target.fake.setScenario(hung, { latencyMs: PROVIDER_LATENCY_MS });
      }
    }),
  );
  const ok = run.results.filter((r) => r.value);
  return {
    id: "hung-provider",
    title: `one provider of ${target.providers.length} hanging`,
    figure: `latency above timeout_ms = ${HUNG_TIMEOUT_MS} ms, one at a time`,
    latencyMs: percentiles(ok.map((r) => r.ms - HUNG_TIMEOUT_MS)),
    samples: ok.length,
    errors: run.results.length - ok.length,
    peakRssMb: peakMb,
    rssOf: "server",
    ratio: `p50 ${((percentiles(ok.map((r) => r.ms)).p50 / HUNG_TIMEOUT_MS) * 100).toFixed(0)} % of timeout_ms`,
  };
}
