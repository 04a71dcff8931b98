/**
 * The memory soak: minutes of distinct calls — searches that miss the cache and fetches of distinct URLs
 * (the same ~500 KB article, a ~100k-character result each) — so every in-process store (result cache
 * in the memory KV, trace and usage queues, metric series, the token cache) sees a stream of new keys.
 * RSS is sampled every 5 s; it must level off. The figure is request latency; the RSS growth compares
 * the mean of the last quarter of the run with that of the second quarter (after warm-up).
 */

import type { BenchTarget } from "@/bench/support/bench-target";
import { peakRssDuring, readRss } from "@/tests/reliability/support/process-memory";
import { percentiles } from "@/tests/reliability/support/stats";
import type { ScenarioResult } from "./scenario";

const SAMPLE_EVERY_MS = 5_000;
const IN_FLIGHT = 10;

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);

export async function soak(
  target: BenchTarget,
  token: string,
  durationSeconds: number,
): Promise<ScenarioResult> {
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const call = async (i: number) => {
    const [path, body] =
      i % 2 === 0
        ? ["/api/v1/search", { query: `soak query ${i} ${Date.now()}`, providers: target.providers }]
        : ["/api/v1/fetch", { url: `${target.pageUrl}?soak=${i}`, max_chars: 100_000 }];
    const response = await fetch(`${target.url}${path}`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    });
    await response.arrayBuffer();
    return response.ok;
  };

  const rss: number[] = [];
  const sampler = setInterval(() => rss.push(readRss(target.pid).rssMb), SAMPLE_EVERY_MS);
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const deadline = performance.now() + durationSeconds * 1000;
  const { peakMb } = await peakRssDuring(target.pid, () =>
    Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (performance.now() < deadline) {
          const started = performance.now();
          const ok = await call(next++).catch(() => false);
          if (ok) latencies.push(performance.now() - started);
          else errors++;
        }
      }),
    ),
  ).finally(() => clearInterval(sampler));

  const quarter = Math.max(1, Math.floor(rss.length / 4));
  const settled = mean(rss.slice(quarter, 2 * quarter));
  const end = mean(rss.slice(-quarter));
  const growth = ((end - settled) / settled) * 100;
  return {
    id: "soak",
    title: `memory soak, ${Math.round(durationSeconds / 60)} min of distinct searches and fetches`,
    figure: `request latency, ${IN_FLIGHT} in flight`,
    latencyMs: percentiles(latencies),
    samples: latencies.length,
    requestsPerSecond: latencies.length / durationSeconds,
    errors,
    peakRssMb: peakMb,
    rssOf: "server",
    rssGrowthPercent: growth,
    notes: `RSS ${settled.toFixed(0)} MB after warm-up → ${end.toFixed(0)} MB at the end (${growth >= 0 ? "+" : ""}${growth.toFixed(1)} %)`,
  };
}
