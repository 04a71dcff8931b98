/**
 * Search engine micro-benchmark: `npx tsx bench/search-engine.ts [--queries=500] [--concurrency=10]`.
 *
 * 1. Fan-out overhead: 5 real adapters against the fake provider server, each answering in a fixed
 *    200 ms. Per query, overhead = runSearch wall time − the slowest provider call, where a provider
 *    call is timed around its adapter (HTTP + parsing), so the figure is the engine's own cost:
 *    validation, operator parsing, scheduling, post-filters, fusion, snippet collapse.
 *    Also reported: wall time − 200 ms, which adds the loopback HTTP client and adapter work.
 * 2. Fusion: 5 lists × 50 results (URL variants, overlaps, ~200-char snippets) ranked, normalised
 *    and fused, top 10 and top 50.
 * Prints a table and writes bench/results/search-engine-<date>.json.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ProviderEntry } from "@/lib/engine/search/call-provider";
import { fuseResults } from "@/lib/engine/search/fusion";
import { rankProviderResults } from "@/lib/engine/search/ranked-results";
import { runSearch } from "@/lib/engine/search/run-search";
import { contentWords, tokenize } from "@/lib/engine/search/text";
import type { ProviderResult, SearchProvider } from "@/lib/engine/search/types";
import { closeProviderConnections } from "@/lib/http/provider-client";
import { type FakeProviderId, type FakeResult, startFakeProviders } from "@/tests/fakes/provider-server";
import { fakeEntry } from "@/tests/unit/search/fake-entries";

const PROVIDERS: FakeProviderId[] = ["brave", "tavily", "serper", "exa", "searxng"];
const PROVIDER_LATENCY_MS = 200;
const WARMUP_QUERIES = 20;
const FUSION_RUNS = 2_000;
const FUSION_WARMUP = 200;

interface Percentiles {
  p50: number;
  p99: number;
  max: number;
}

function percentiles(samples: readonly number[]): Percentiles {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
  return { p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] ?? Number.NaN };
}

function numberFlag(name: string, fallback: number): number {
  const flag = process.argv.find((arg) => arg.startsWith(`--${name}=`));
  const value = flag === undefined ? fallback : Number(flag.slice(name.length + 3));
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
  return value;
}

/** Ten results per provider, half shared across providers, as URL variants. */
function providerResults(providerIndex: number, query: number): FakeResult[] {
  return Array.from({ length: 10 }, (_, i) => {
    const shared = i % 2 === 0;
    const url = shared
      ? `https://${providerIndex % 2 === 0 ? "www." : ""}shared${i}.example.org/q${query % 20}/doc?utm_source=p${providerIndex}`
      : `https://p${providerIndex}-r${i}.example.net/q${query % 20}`;
    return {
      url,
      title: `Result ${i} for query ${query}`,
      snippet: `Snippet ${i} from provider ${providerIndex} about topic ${query}.`,
    };
  });
}

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

async function benchFanout(queries: number, concurrency: number) {
  const fake = await startFakeProviders();
  PROVIDERS.forEach((id, index) => {
    fake.setScenario(id, { latencyMs: PROVIDER_LATENCY_MS, results: providerResults(index, index) });
  });
  const baseEntries = PROVIDERS.map((id) => fakeEntry(fake, id));

  const engineOverhead: number[] = [];
  const overheadVsLatency: number[] = [];
  let failures = 0;

  const runOne = async (n: number, record: boolean) => {
    const providerMs: number[] = [];
    const entries: ProviderEntry[] = baseEntries.map((entry) => ({
      ...entry,
      provider: timedProvider(entry.provider, (ms) => providerMs.push(ms)),
    }));
    const started = performance.now();
    const result = await runSearch({
      input: { query: `benchmark query ${n} site:example.org`, max_results: 10 },
      providers: entries,
    });
    const wall = performance.now() - started;
    if (!record) return;
    failures += result.providers_failed.length;
    engineOverhead.push(wall - Math.max(...providerMs));
    overheadVsLatency.push(wall - PROVIDER_LATENCY_MS);
  };

  for (let n = 0; n < WARMUP_QUERIES; n++) await runOne(n, false);
  let next = 0;
  const worker = async () => {
    while (next < queries) await runOne(next++, true);
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsedMs = performance.now() - started;

  await fake.close();
  return {
    queries,
    concurrency,
    providers: PROVIDERS.length,
    providerLatencyMs: PROVIDER_LATENCY_MS,
    providerFailures: failures,
    elapsedMs,
    engineOverheadMs: percentiles(engineOverhead),
    overheadVsProviderLatencyMs: percentiles(overheadVsLatency),
  };
}

function fusionLists(run: number): ProviderResult[][] {
  return Array.from({ length: 5 }, (_, p) =>
    Array.from({ length: 50 }, (_, i) => {
      // Every third result is shared with the other providers, at a different rank.
      const shared = i % 3 === 0;
      const doc = shared ? (i + p * 3) % 50 : i;
      const host = shared ? `shared${doc}.example.org` : `p${p}-r${i}.example.net`;
      const variant =
        p % 2 === 0
          ? `https://www.${host}/doc/${run % 7}/`
          : `http://${host}/doc/${run % 7}?utm_source=x&id=${doc}`;
      return {
        url: shared ? variant.replace(/\?.*$/, "") : variant,
        title: `Title ${doc} from provider ${p}`,
        snippet:
          `Result ${doc} explains how the engine fuses provider lists. ` +
          `Provider ${p} adds its own detail number ${i}, with more words about ranking, snippets and budgets.`,
      };
    }),
  );
}

function benchFusion(maxResults: number) {
  const queryTerms = contentWords(tokenize("engine fuses provider lists ranking"));
  const samples: number[] = [];
  for (let run = 0; run < FUSION_WARMUP + FUSION_RUNS; run++) {
    const lists = fusionLists(run);
    const started = performance.now();
    const ranked = lists.map((results, p) => rankProviderResults(`p${p}`, results));
    fuseResults(ranked, { maxResults, queryTerms });
    const ms = performance.now() - started;
    if (run >= FUSION_WARMUP) samples.push(ms);
  }
  return { lists: 5, resultsPerList: 50, maxResults, runs: FUSION_RUNS, ms: percentiles(samples) };
}

const fmt = (ms: number) => ms.toFixed(3).padStart(9);

async function main() {
  const queries = numberFlag("queries", 500);
  const concurrency = numberFlag("concurrency", 10);

  const fanout = await benchFanout(queries, concurrency);
  await closeProviderConnections();
  const fusionTop10 = benchFusion(10);
  const fusionTop50 = benchFusion(50);

  console.log(`\nSearch engine benchmark (node ${process.version})`);
  console.log(
    `fan-out: ${fanout.queries} queries, ${fanout.providers} providers × ${PROVIDER_LATENCY_MS} ms, concurrency ${fanout.concurrency}, ${fanout.providerFailures} provider failures`,
  );
  console.log(
    `${"measure".padEnd(48)}${"p50 ms".padStart(9)} ${"p99 ms".padStart(9)} ${"max ms".padStart(9)}  target`,
  );
  const row = (name: string, p: Percentiles, target: string) =>
    console.log(`${name.padEnd(48)}${fmt(p.p50)} ${fmt(p.p99)} ${fmt(p.max)}  ${target}`);
  row("engine overhead above slowest provider", fanout.engineOverheadMs, "p50 ≤ 5, p99 ≤ 20");
  row("wall time above 200 ms (incl. HTTP + adapters)", fanout.overheadVsProviderLatencyMs, "-");
  row("fusion 5×50 → top 10", fusionTop10.ms, "≤ 2");
  row("fusion 5×50 → top 50", fusionTop50.ms, "≤ 2");

  const date = new Date().toISOString().slice(0, 10);
  const dir = path.join(process.cwd(), "bench", "results");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `search-engine-${date}.json`);
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    fanout,
    fusion: [fusionTop10, fusionTop50],
  };
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nwrote ${path.relative(process.cwd(), file)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
