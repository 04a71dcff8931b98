/**
 * The search engine alone in process (no HTTP API, database, cache or trace): the target's real
 * adapters against a plain-HTTP fake server of this process at 200 ms (TLS is the adapters' cost, timed
 * with them, and this process does not trust the bench's authority). Each provider call is timed around its adapter; the figure is runSearch
 * wall time minus the slowest of them — the engine's own cost (validation, operators, scheduling,
 * post-filters, fusion, snippet collapse). Set against the REST fan-out figure it shows what the service
 * and transport layers add.
 */

import { type BenchTarget, setProviderLatency } from "@/bench/support/bench-target";
import { ownPeakRss, timedCalls } from "@/bench/support/timed-calls";
import type { ProviderEntry } from "@/lib/engine/search/attempt";
import { runSearch } from "@/lib/engine/search/run-search";
import type { SearchProvider } from "@/lib/engine/search/types";
import { startFakeProviders } from "@/tests/fakes/provider-server";
import { percentiles } from "@/tests/reliability/support/stats";
import { fakeEntry } from "@/tests/unit/search/fake-entries";
import type { ScenarioResult } from "./scenario";

/** Wraps an adapter to time its calls; the engine itself is untouched. */
function timedProvider(provider: SearchProvider, record: (ms: number) => void): SearchProvider {
  return {
    ...provider,
    async search(call) {
      const started = performance.now();
      try {
        return await provider.search(call);
      } finally {
        record(performance.now() - started);
      }
    },
  };
}

export async function engineFanout(
  target: BenchTarget,
  options: { queries: number; concurrency: number },
  api?: ScenarioResult,
): Promise<ScenarioResult> {
  const fake = await startFakeProviders();
  setProviderLatency(fake, target.providers);
  const search = async (n: number) => {
    const providerMs: number[] = [];
    const entries: ProviderEntry[] = target.providers.map((id) => {
      const entry = fakeEntry(fake, id);
      return { ...entry, provider: timedProvider(entry.provider, (ms) => providerMs.push(ms)) };
    });
    const started = performance.now();
    const result = await runSearch({
      input: { query: `engine bench ${n} site:example.com`, max_results: 10 },
      providers: entries,
    });
    const wall = performance.now() - started;
    return { ok: result.providers_failed.length === 0, overhead: wall - Math.max(...providerMs) };
  };
  await timedCalls(20, options.concurrency, search);
  const { result: run, peakMb } = await ownPeakRss(() =>
    timedCalls(options.queries, options.concurrency, search),
  ).finally(() => fake.close());
  const ok = run.results.filter((r) => r.value.ok);
  const latencyMs = percentiles(ok.map((r) => r.value.overhead));
  return {
    id: "fanout-engine",
    title: "uncached fan-out, engine only",
    figure: `engine time above the slowest provider, ${options.concurrency} in flight`,
    latencyMs,
    samples: ok.length,
    errors: run.results.length - ok.length,
    peakRssMb: peakMb,
    rssOf: "bench",
    ratio: api
      ? `${((latencyMs.p50 / api.latencyMs.p50) * 100).toFixed(1)} % of the REST overhead p50`
      : undefined,
  };
}
