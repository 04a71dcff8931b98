/**
 * What the request log costs, in process: the line every authenticated request writes (request id,
 * tenant, route, status, duration; redacted), through the process logger onto a real pipe that another
 * process drains, as a container's stdout is. Four destinations, each for the same number of lines with
 * the event loop turning between requests (every 20 lines, as a server's would): before #29 (flushed only
 * at 4 KB, so a quiet server's lines waited minutes), now (also a second after the first buffered line,
 * and error lines at once), now with 1 % error lines, and a write syscall per line for scale. The variants
 * take turns in five rounds.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setImmediate as yieldToLoop } from "node:timers/promises";
import pino, { type DestinationStream } from "pino";
import { ownPeakRss } from "@/bench/support/timed-calls";
import { bufferedDestination, createLogger } from "@/lib/observability/logger";
import { inRequestScope } from "@/lib/observability/request-scope";
import { percentiles } from "@/tests/reliability/support/stats";
import type { ScenarioResult } from "./scenario";

const LINES_PER_TURN = 20;
const WARM_UP_TURNS = 200;
const ROUNDS = 5;

interface Variant {
  name: string;
  destination(fd: number): DestinationStream;
  /** Every `errorEvery`-th line is an error line. */
  errorEvery?: number;
}

const VARIANTS: readonly Variant[] = [
  {
    name: "before (4 KB buffer only)",
    destination: (fd) =>
      pino.destination({ dest: fd, sync: false, minLength: 4096, maxLength: 8 * 1024 * 1024 }),
  },
  { name: "now", destination: bufferedDestination },
  { name: "now, 1 % error lines", destination: bufferedDestination, errorEvery: 100 },
  { name: "a write per line", destination: (fd) => pino.destination({ dest: fd, sync: true }) },
];

/** A FIFO that a `cat` drains into /dev/null, opened for writing: a pipe like a container's stdout. */
function drainedPipe(): { fd: number; close(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), "smx-bench-log-"));
  const fifo = path.join(dir, "stdout");
  execFileSync("mkfifo", [fifo]);
  const reader = spawn("sh", ["-c", 'exec cat "$0" > /dev/null', fifo], { stdio: "ignore" });
  const fd = openSync(fifo, "w"); // returns once the reader has opened its end
  return {
    fd,
    close() {
      reader.kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves once `destination` has written what it buffers (before its pipe is closed). */
function written(destination: DestinationStream): Promise<void> {
  const buffered = destination as DestinationStream & { flush?(done: () => void): void };
  return new Promise((resolve) => (buffered.flush ? buffered.flush(() => resolve()) : resolve()));
}

/** Microseconds per line of each turn (LINES_PER_TURN lines), after the warm-up. */
async function measure(variant: Variant, turns: number): Promise<number[]> {
  const pipe = drainedPipe();
  const destination = variant.destination(pipe.fd);
  const logger = createLogger(destination, "info");
  const perLine: number[] = [];
  let line = 0;
  try {
    for (let turn = 0; turn < WARM_UP_TURNS + turns; turn++) {
      const started = performance.now();
      inRequestScope({ requestId: `req-${turn}`, tenantId: "5b0e3c8a-6f1d-4e2b-9a7c-1d2e3f4a5b6c" }, () => {
        for (let i = 0; i < LINES_PER_TURN; i++, line++) {
          const fields = { route: "/api/v1/search", method: "POST", status: 200, duration_ms: 3.2 };
          if (variant.errorEvery && line % variant.errorEvery === 0) logger.error(fields, "request failed");
          else logger.info(fields, "request");
        }
      });
      const us = ((performance.now() - started) * 1000) / LINES_PER_TURN;
      if (turn >= WARM_UP_TURNS) perLine.push(us);
      await yieldToLoop(); // the asynchronous writes run between requests, as in a server
    }
    await written(destination);
  } finally {
    pipe.close();
  }
  return perLine;
}

/** Lines a second at the median turn: a turn the machine stalled (another process, a GC) moves it least. */
const linesPerSecond = (perLineUs: number[]) => 1e6 / percentiles(perLineUs).p50;

export async function logCost(turns: number, requestsPerSecond: number): Promise<ScenarioResult> {
  const { result: runs, peakMb } = await ownPeakRss(async () => {
    const measured = VARIANTS.map((variant) => ({ variant, perLine: [] as number[] }));
    // In alternating rounds, so that whatever else the machine does weighs on every variant alike.
    for (let round = 0; round < ROUNDS; round++) {
      for (const run of measured)
        run.perLine.push(...(await measure(run.variant, Math.ceil(turns / ROUNDS))));
    }
    return measured;
  });
  const [before, now, ...others] = runs;
  if (!before || !now) throw new Error("log-cost needs its before and now variants");
  const rate = linesPerSecond;
  const share = (perLine: number[]) =>
    `${((requestsPerSecond * percentiles(perLine).p50) / 1e4).toFixed(2)} %`;
  const describe = ({ variant, perLine }: (typeof runs)[number]) =>
    `${variant.name}: p50 ${percentiles(perLine).p50.toFixed(2)} µs a line (${Math.round(rate(perLine)).toLocaleString("en")} lines/s), ${share(perLine)} of a core at ${requestsPerSecond} req/s`;
  return {
    id: "log-cost",
    title: "request log line through the logger onto a drained pipe",
    figure: "time per line (ms)",
    latencyMs: percentiles(now.perLine.map((us) => us / 1000)),
    samples: now.perLine.length * LINES_PER_TURN,
    requestsPerSecond: rate(now.perLine),
    throughputVsBaseline: rate(now.perLine) / rate(before.perLine),
    ratio: `${(rate(now.perLine) / rate(before.perLine)).toFixed(2)}× the lines/s of before`,
    notes: [before, now, ...others].map(describe).join("; "),
    errors: 0,
    peakRssMb: peakMb,
    rssOf: "bench",
  };
}
