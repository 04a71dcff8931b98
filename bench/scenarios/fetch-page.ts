/**
 * Fetch and extraction of a ~500 KB article (navigation, ads, tables, code): through REST against the
 * server (SSRF-safe fetch, Readability, Markdown, trace), and the fetch engine alone in this process
 * (the same direct fetcher, no HTTP API, database or cache), which shows how much of the REST figure is
 * extraction. Calls run one at a time: extraction is synchronous CPU work. The REST row asks for the
 * response uncompressed (the server's own work); the same calls with `Accept-Encoding: gzip` are timed
 * too, since `next start` compresses a ~400 KB answer when the client accepts it (a proxy or platform in
 * front usually does that instead).
 */

import { type BenchTarget, PAGE_BYTES } from "@/bench/support/bench-target";
import { ownPeakRss, timedCalls } from "@/bench/support/timed-calls";
import { runFetch } from "@/lib/engine/fetch/run-fetch";
import { peakRssDuring } from "@/tests/reliability/support/process-memory";
import { percentiles } from "@/tests/reliability/support/stats";
import { directEntry, LOOPBACK_ONLY } from "@/tests/unit/fetch/entries";
import type { ScenarioResult } from "./scenario";

const WARM_UP = 5;
const MAX_CHARS = 1_000_000;

export async function fetchThroughApi(
  target: BenchTarget,
  token: string,
  runs: number,
): Promise<ScenarioResult> {
  const fetchOnce = (encoding: string) => async () => {
    const response = await fetch(`${target.url}/api/v1/fetch`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        "accept-encoding": encoding,
      },
      body: JSON.stringify({ url: target.pageUrl, no_cache: true, max_chars: MAX_CHARS }),
    });
    const reply = (await response.json()) as { content?: string };
    return response.ok && (reply.content?.length ?? 0) > 10_000;
  };
  for (let i = 0; i < WARM_UP; i++) await fetchOnce("identity")();
  const { result: run, peakMb } = await peakRssDuring(target.pid, () =>
    timedCalls(runs, 1, fetchOnce("identity")),
  );
  const gzip = await timedCalls(runs, 1, fetchOnce("gzip"));
  const gzipP50 = percentiles(gzip.results.filter((r) => r.value).map((r) => r.ms)).p50;
  const ok = run.results.filter((r) => r.value);
  return {
    id: "fetch",
    title: `fetch + extraction of a ${PAGE_BYTES / 1024} KB page (REST)`,
    figure: "request latency, one at a time, answer uncompressed",
    latencyMs: percentiles(ok.map((r) => r.ms)),
    notes: `with Accept-Encoding: gzip (compressed by next start) p50 ${gzipP50.toFixed(0)} ms`,
    samples: ok.length,
    requestsPerSecond: (run.results.length / run.elapsedMs) * 1000,
    errors: run.results.length - ok.length,
    peakRssMb: peakMb,
    rssOf: "server",
  };
}

export async function fetchEngineOnly(
  target: BenchTarget,
  runs: number,
  api?: ScenarioResult,
): Promise<ScenarioResult> {
  const fetchOnce = async () => {
    const result = await runFetch({
      input: { url: target.pageUrl, max_chars: MAX_CHARS },
      providers: [directEntry()],
      ssrf: LOOPBACK_ONLY,
    });
    return result.content.length > 10_000;
  };
  for (let i = 0; i < WARM_UP; i++) await fetchOnce();
  const { result: run, peakMb } = await ownPeakRss(() => timedCalls(runs, 1, fetchOnce));
  const ok = run.results.filter((r) => r.value);
  const latencyMs = percentiles(ok.map((r) => r.ms));
  return {
    id: "fetch-engine",
    title: `fetch + extraction of a ${PAGE_BYTES / 1024} KB page (engine only)`,
    figure: "runFetch latency in process, one at a time",
    latencyMs,
    samples: ok.length,
    requestsPerSecond: (run.results.length / run.elapsedMs) * 1000,
    errors: run.results.length - ok.length,
    peakRssMb: peakMb,
    rssOf: "bench",
    ratio: api ? `${((latencyMs.p50 / api.latencyMs.p50) * 100).toFixed(0)} % of the REST p50` : undefined,
  };
}
