/**
 * Uncached fan-out through REST: every search bypasses the cache and asks every fake provider of the
 * target (ten over HTTPS on the bench's own server), each answering in 200 ms. The figure is what the product adds on top of its slowest provider: client-side
 * latency minus the longest `providers_succeeded[].duration_ms` of the same response (the engine's own
 * timing of that provider call, HTTP and parsing included).
 */

import { type BenchTarget, PROVIDER_LATENCY_MS } from "@/bench/support/bench-target";
import { timedCalls } from "@/bench/support/timed-calls";
import { peakRssDuring } from "@/tests/reliability/support/process-memory";
import { percentiles } from "@/tests/reliability/support/stats";
import type { ScenarioResult } from "./scenario";

interface SearchReply {
  providers_succeeded?: Array<{ duration_ms: number }>;
  providers_failed?: unknown[];
  /** The engine's own time for the call: budget admission, the fan-out, fusion. */
  duration_ms?: number;
}

export async function uncachedFanout(
  target: BenchTarget,
  token: string,
  options: { requests: number; concurrency: number },
): Promise<ScenarioResult> {
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const { result: run, peakMb } = await peakRssDuring(target.pid, () =>
    timedCalls(options.requests, options.concurrency, async (i) => {
      const response = await fetch(`${target.url}/api/v1/search`, {
        method: "POST",
        headers,
        body: JSON.stringify({
          query: `uncached bench ${i} ${Date.now()}`,
          providers: target.providers,
          no_cache: true,
        }),
      });
      const reply = (await response.json()) as SearchReply;
      const timing = response.headers.get("server-timing") ?? "";
      const serverMs = (name: string) => Number(new RegExp(`${name};dur=([\\d.]+)`).exec(timing)?.[1] ?? 0);
      const succeeded = reply.providers_succeeded ?? [];
      return {
        ok:
          response.ok &&
          succeeded.length === target.providers.length &&
          (reply.providers_failed ?? []).length === 0,
        slowestMs: Math.max(0, ...succeeded.map((p) => p.duration_ms)),
        engineMs: reply.duration_ms ?? 0,
        authMs: serverMs("auth"),
        callMs: serverMs("call"),
      };
    }),
  );
  const ok = run.results.filter((r) => r.value.ok);
  const wall = percentiles(ok.map((r) => r.ms));
  // Where the overhead is (p50 of each part, from the reply and its Server-Timing): inside the engine's run
  // (admission, starting the calls, fusion), the token check, the rest of the call around the engine (the
  // tenant's providers and keys, settlement), and outside the handler (Next.js, the network, this client).
  const p50 = (part: (value: (typeof ok)[number]["value"], ms: number) => number) =>
    percentiles(ok.map((r) => part(r.value, r.ms))).p50.toFixed(1);
  const split = [
    `in the engine run ${p50((v) => v.engineMs - v.slowestMs)} ms`,
    `token check ${p50((v) => v.authMs)} ms`,
    `rest of the call ${p50((v) => v.callMs - v.engineMs)} ms`,
    `outside the handler ${p50((v, ms) => ms - v.authMs - v.callMs)} ms`,
  ];
  const single = options.concurrency === 1;
  return {
    id: single ? "fanout-single" : "fanout",
    title: `uncached fan-out, ${target.providers.length} providers${target.tls ? " over HTTPS" : ""} × ${PROVIDER_LATENCY_MS} ms${single ? ", one at a time" : ""}`,
    figure: `latency above the slowest provider, ${options.concurrency} in flight`,
    latencyMs: percentiles(ok.map((r) => r.ms - r.value.slowestMs)),
    samples: ok.length,
    requestsPerSecond: (run.results.length / run.elapsedMs) * 1000,
    errors: run.results.length - ok.length,
    peakRssMb: peakMb,
    rssOf: "server",
    ratio: `wall p50 ${wall.p50.toFixed(0)} ms = ${(wall.p50 / PROVIDER_LATENCY_MS).toFixed(2)}× the provider latency`,
    notes: `overhead p50: ${split.join(", ")}`,
  };
}
