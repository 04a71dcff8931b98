/**
 * Fetch engine benchmark: `npx tsx bench/fetch-engine.ts [--runs=200] [--concurrency=50]`.
 *
 * A ~500 KB article (navigation, ads, 300 paragraphs, tables, code) served by a loopback server reached
 * through the allowlist, fetched and extracted by runFetch with the direct fetcher only:
 * 1. latency: sequential runs, p50/p95/max of runFetch wall time (safeFetch + Readability + Turndown);
 * 2. throughput: pages per second on one core (sequential, so one event loop = one core);
 * 3. memory: peak RSS and heap while `concurrency` pages are fetched and extracted at once.
 * Prints a table and writes bench/results/fetch-engine-<date>.json.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { runFetch } from "@/lib/engine/fetch/run-fetch";
import { directEntry, LOOPBACK_ONLY } from "@/tests/unit/fetch/entries";
import { startSite } from "@/tests/unit/fetch/site-server";

const WARMUP = 20;

function numberFlag(name: string, fallback: number): number {
  const flag = process.argv.find((arg) => arg.startsWith(`--${name}=`));
  const value = flag === undefined ? fallback : Number(flag.slice(name.length + 3));
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a positive integer`);
  return value;
}

function percentile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? Number.NaN;
}

function article(targetBytes: number): string {
  const chrome = `<header><nav>${Array.from({ length: 40 }, (_, i) => `<a href="/section/${i}">Section ${i}</a>`).join(" ")}</nav></header>`;
  const blocks: string[] = [];
  for (let i = 0; blocks.join("").length < targetBytes; i++) {
    blocks.push(
      `<h2>Part ${i}</h2><p>${"The committee reviewed the quarterly figures and found them consistent with the forecast, with two exceptions discussed below. ".repeat(8)}<a href="/ref/${i}">reference ${i}</a></p>`,
    );
    if (i % 10 === 0)
      blocks.push(
        `<div class="ad"><span>Advertisement</span><a href="https://ads.example/${i}">Offer ${i}</a></div>`,
      );
    if (i % 15 === 0)
      blocks.push(
        `<table><thead><tr><th>Quarter</th><th>Revenue</th><th>Cost</th></tr></thead><tbody>${Array.from({ length: 6 }, (_, r) => `<tr><td>Q${r}</td><td>${r * 12}</td><td>${r * 7}</td></tr>`).join("")}</tbody></table>`,
      );
    if (i % 20 === 0)
      blocks.push(
        `<pre><code class="language-ts">export function total(rows: number[]): number {\n  return rows.reduce((a, b) => a + b, 0);\n}</code></pre>`,
      );
  }
  return `<!DOCTYPE html><html lang="en"><head><title>Quarterly report</title></head><body>${chrome}<main><article><h1>Quarterly report</h1>${blocks.join("\n")}</article><aside>Related links</aside></main><footer>© Example</footer></body></html>`;
}

async function main(): Promise<void> {
  const runs = numberFlag("runs", 200);
  const concurrency = numberFlag("concurrency", 50);
  const html = article(500 * 1024);
  const site = await startSite({ "/article": { body: html } });
  const url = `${site.url}/article`;
  const fetchOnce = () =>
    runFetch({ input: { url, max_chars: 1_000_000 }, providers: [directEntry()], ssrf: LOOPBACK_ONLY });

  try {
    for (let i = 0; i < WARMUP; i++) await fetchOnce();
    const samples: number[] = [];
    let chars = 0;
    const started = performance.now();
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const result = await fetchOnce();
      samples.push(performance.now() - t0);
      chars = result.metadata.total_chars;
    }
    const seconds = (performance.now() - started) / 1000;
    const sorted = [...samples].sort((a, b) => a - b);

    global.gc?.();
    const baseline = process.memoryUsage();
    let peakRss = baseline.rss;
    let peakHeap = baseline.heapUsed;
    const sampler = setInterval(() => {
      const usage = process.memoryUsage();
      peakRss = Math.max(peakRss, usage.rss);
      peakHeap = Math.max(peakHeap, usage.heapUsed);
    }, 5);
    const burstStarted = performance.now();
    await Promise.all(Array.from({ length: concurrency }, fetchOnce));
    const burstMs = performance.now() - burstStarted;
    clearInterval(sampler);

    const figures = {
      page_bytes: Buffer.byteLength(html),
      markdown_chars: chars,
      runs,
      latency_ms: {
        p50: sorted.length ? percentile(sorted, 0.5) : 0,
        p95: percentile(sorted, 0.95),
        max: sorted[sorted.length - 1] ?? 0,
      },
      pages_per_second_one_core: runs / seconds,
      concurrent: {
        pages: concurrency,
        wall_ms: burstMs,
        baseline_rss_mb: baseline.rss / 2 ** 20,
        peak_rss_mb: peakRss / 2 ** 20,
        peak_heap_mb: peakHeap / 2 ** 20,
      },
      node: process.version,
    };
    const f = (n: number) => n.toFixed(1);
    console.table({
      "latency p50 (ms)": { value: f(figures.latency_ms.p50), target: "≤ 60" },
      "latency p95 (ms)": { value: f(figures.latency_ms.p95), target: "" },
      "latency max (ms)": { value: f(figures.latency_ms.max), target: "" },
      "pages/s (one core)": { value: f(figures.pages_per_second_one_core), target: "" },
      [`${concurrency} concurrent: wall (ms)`]: { value: f(burstMs), target: "" },
      [`${concurrency} concurrent: peak RSS (MB)`]: { value: f(figures.concurrent.peak_rss_mb), target: "" },
      [`${concurrency} concurrent: peak heap (MB)`]: {
        value: f(figures.concurrent.peak_heap_mb),
        target: "",
      },
    });
    const dir = path.join(import.meta.dirname, "results");
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `fetch-engine-${new Date().toISOString().slice(0, 10)}.json`);
    writeFileSync(file, `${JSON.stringify(figures, null, 2)}\n`);
    console.log(
      `page ${f(figures.page_bytes / 1024)} KB → ${chars} chars of Markdown; wrote ${path.relative(process.cwd(), file)}`,
    );
  } finally {
    await site.close();
  }
}

await main();
