/**
 * Runs one document parse in a worker thread, so a hostile document costs the worker, never the server:
 * the main thread stays responsive while it runs, the worker's V8 heap is capped (resourceLimits), and it
 * is terminated when the caller's signal aborts or the parse outlasts its time cap. At most
 * MAX_CONCURRENT_PARSES run at once per process (later ones wait, as long as their signal allows), so a
 * burst of bombs cannot multiply the memory a parse may take.
 *
 * The script is a plain .mjs file found at run time, next to this module when it runs from source (vitest,
 * tsx, the stdio bridge) and under `<cwd>/lib` after `next build`, whose bundle has no such neighbour
 * (next.config.ts includes the scripts in the output file tracing). It replies once with a WorkerReply.
 *
 * Errors: ProviderError "too_large" (heap or time cap, or the script's own caps), "invalid_response" (the
 * script could not parse the document, or the worker failed to start); the signal's reason on abort.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { ProviderError } from "@/lib/engine/shared/errors";

type WorkerReply<T> =
  | { type: "done"; result: T }
  | { type: "too_large"; message: string }
  | { type: "failed"; message: string };

interface ParseLimits {
  /** The worker's V8 old generation, in MiB: pdf.js objects and extracted text live there. */
  heapMb: number;
  /** Wall-clock time from the worker's start to its reply. */
  timeMs: number;
}

export interface WorkerParse {
  /** File name of the script in lib/engine/fetch/extract. */
  script: string;
  workerData: unknown;
  /** Buffers moved to the worker instead of copied. */
  transferList?: ArrayBuffer[];
  limits: ParseLimits;
  signal?: AbortSignal;
}

const MAX_CONCURRENT_PARSES = 2;
const SCRIPT_DIR = "lib/engine/fetch/extract";

export async function parseInWorker<T>(parse: WorkerParse): Promise<T> {
  const release = await parseSlots.acquire(parse.signal);
  try {
    return await runWorker<T>(parse);
  } finally {
    release();
  }
}

async function runWorker<T>({ script, workerData, transferList, limits, signal }: WorkerParse): Promise<T> {
  // Imported at run time: Turbopack bundles what `new Worker(path)` of a Worker it can trace starts, and for
  // a path known only at run time that is every file of the project, which fails the build.
  const { Worker } = await import(/* webpackIgnore: true */ "node:worker_threads");
  return new Promise<T>((resolve, reject) => {
    const worker = new Worker(scriptPath(script), {
      workerData,
      transferList,
      resourceLimits: { maxOldGenerationSizeMb: limits.heapMb, maxYoungGenerationSizeMb: 16 },
      // The parser needs no environment, and whatever it prints is not ours to pass on.
      env: {},
      stdout: true,
      stderr: true,
    });
    const onAbort = () => finish(() => reject(signal?.reason));
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(
            new ProviderError(
              "too_large",
              `document parsing stopped after ${limits.timeMs / 1000} s: too large or too complex`,
            ),
          ),
        ),
      limits.timeMs,
    );
    let settled = false;
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      void worker.terminate();
      settle();
    };

    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    worker.stdout.resume();
    worker.stderr.resume();
    worker.on("message", (reply: WorkerReply<T>) =>
      finish(() => {
        if (reply.type === "done") resolve(reply.result);
        else if (reply.type === "too_large") reject(new ProviderError("too_large", reply.message));
        else reject(new ProviderError("invalid_response", `unreadable document: ${reply.message}`));
      }),
    );
    worker.on("error", (error: Error & { code?: string }) =>
      finish(() =>
        reject(
          error.code === "ERR_WORKER_OUT_OF_MEMORY"
            ? new ProviderError(
                "too_large",
                `document parsing needs more than ${limits.heapMb} MiB of memory`,
              )
            : new ProviderError("invalid_response", `document parser failed: ${error.message}`),
        ),
      ),
    );
    worker.on("exit", (code) =>
      finish(() =>
        reject(
          new ProviderError("invalid_response", `document parser exited (code ${code}) without a reply`),
        ),
      ),
    );
  });
}

/** Beside this module when it runs from source; under the working directory in a Next.js build. */
function scriptPath(script: string): string {
  const here = import.meta.dirname;
  if (here && existsSync(path.join(here, script))) return path.join(here, script);
  return path.join(process.cwd(), SCRIPT_DIR, script);
}

/** A counting semaphore whose waiters leave the queue when their signal aborts. */
const parseSlots = (() => {
  let free = MAX_CONCURRENT_PARSES;
  const waiting: Array<() => void> = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free++;
  };
  const acquire = (signal?: AbortSignal): Promise<() => void> => {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (free > 0) {
      free--;
      return Promise.resolve(release);
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal?.removeEventListener("abort", leave);
        resolve(release);
      };
      const leave = () => {
        waiting.splice(waiting.indexOf(grant), 1);
        reject(signal?.reason);
      };
      waiting.push(grant);
      signal?.addEventListener("abort", leave, { once: true });
    });
  };
  return { acquire };
})();
