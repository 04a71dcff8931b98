/**
 * Fetch and extraction of large pages, the fetch engine alone in this process: forum threads of 1, 3 and
 * 10 MB (tests/support/large-pages.ts: thousands of posts of nested divs, links, quotes, tables and code)
 * from a local site, one at a time, the direct fetcher's body cap raised to take the 10 MB one. The latency
 * is the 3 MB page's (extraction reads its first 2 MiB, lib/engine/fetch/extract/html.ts); the notes give the
 * others' p50 and each one's CPU time, which a busy machine inflates less than the wall clock.
 */
import { ownPeakRss, timedCalls } from "@/bench/support/timed-calls";
import { runFetch } from "@/lib/engine/fetch/run-fetch";
import { percentiles } from "@/tests/reliability/support/stats";
import { forumThread } from "@/tests/support/large-pages";
import { directEntry, LOOPBACK_ONLY } from "@/tests/unit/fetch/entries";
import { startSite } from "@/tests/unit/fetch/site-server";
import type { ScenarioResult } from "./scenario";

const MIB = 1024 * 1024;
const SIZES_MB = [1, 3, 10] as const;
const MAX_BODY_BYTES = 16 * MIB;

export async function largePages(runs: number): Promise<ScenarioResult> {
  const site = await startSite(
    Object.fromEntries(SIZES_MB.map((mb) => [`/thread-${mb}`, { body: forumThread(mb * 1_000_000) }])),
  );
  try {
    const measured = new Map<number, { p50: number; cpuMs: number; ok: number; latencyMs: number[] }>();
    let peakRssMb = 0;
    for (const mb of SIZES_MB) {
      const cpuStart = process.cpuUsage();
      const { result: run, peakMb } = await ownPeakRss(() =>
        timedCalls(runs, 1, async () => {
          const result = await runFetch({
            input: { url: `${site.url}/thread-${mb}`, max_chars: 1_000_000, timeout_ms: 120_000 },
            providers: [directEntry()],
            ssrf: LOOPBACK_ONLY,
            maxBytes: MAX_BODY_BYTES,
          }).catch(() => undefined);
          return result !== undefined && result.content.length > 10_000;
        }),
      );
      const cpu = process.cpuUsage(cpuStart);
      const ok = run.results.filter((r) => r.value).map((r) => r.ms);
      peakRssMb = Math.max(peakRssMb, peakMb);
      measured.set(mb, {
        p50: percentiles(ok).p50,
        cpuMs: (cpu.user + cpu.system) / 1000 / runs,
        ok: ok.length,
        latencyMs: ok,
      });
    }
    const main = measured.get(3);
    return {
      id: "large-pages",
      title: "fetch + extraction of a 3 MB forum thread (engine only)",
      figure: "runFetch latency in process, one at a time",
      latencyMs: percentiles(main?.latencyMs ?? []),
      samples: main?.ok ?? 0,
      errors: SIZES_MB.length * runs - [...measured.values()].reduce((sum, m) => sum + m.ok, 0),
      peakRssMb,
      rssOf: "bench",
      notes: SIZES_MB.map((mb) => {
        const m = measured.get(mb);
        return `${mb} MB: p50 ${m?.p50.toFixed(0)} ms, ${m?.cpuMs.toFixed(0)} ms CPU`;
      }).join("; "),
    };
  } finally {
    await site.close();
  }
}
