/**
 * Runs one task on caller-controlled input (a document, a page, a JSON Schema) in a worker thread, so a
 * hostile input costs the worker, never the server: the main thread stays responsive while it runs, the
 * worker's V8 heap is capped (resourceLimits), and it is terminated when the caller's signal aborts or the
 * task outlasts its time cap. Each kind of task has its own slots (`workerSlots`): at most that many of it
 * run at once per process (later ones wait, as long as their signal allows), so a burst of bombs cannot
 * multiply the memory a task may take, and one kind's burst never queues another kind.
 *
 * The script is a plain .mjs file found at run time: beside the code that starts it in the command-line
 * bundle (dist/, scripts/build-cli.mjs), under the repository root when it runs from source (vitest, tsx),
 * and under `<cwd>` after `next build`, whose bundle has neither (next.config.ts includes the scripts in
 * the output file tracing). It replies once with a WorkerReply.
 *
 * Errors: ProviderError "too_large" (heap or time cap, or the script's own caps), "invalid_response" (the
 * script could not read its input, or the worker failed to start); the signal's reason on abort.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { ProviderError } from "@/lib/engine/shared/errors";

type WorkerReply<T> =
  | { type: "done"; result: T }
  | { type: "too_large"; message: string }
  | { type: "failed"; message: string };

export interface WorkerLimits {
  /** The worker's V8 old generation, in MiB: everything the task builds lives there. */
  heapMb: number;
  /** Wall-clock time from the worker's start to its reply. */
  timeMs: number;
}

export interface WorkerTask {
  /** The script's path from the repository root, e.g. "lib/engine/fetch/extract/pdf-worker.mjs". */
  script: string;
  workerData: unknown;
  /** Buffers moved to the worker instead of copied. */
  transferList?: ArrayBuffer[];
  limits: WorkerLimits;
  /** What the task does, for its errors: "document parsing", "schema compilation". */
  label: string;
  /** The slots of this kind of task. */
  slots: WorkerSlots;
  signal?: AbortSignal;
}

export interface WorkerSlots {
  acquire(signal?: AbortSignal): Promise<() => void>;
}

export async function runInWorker<T>(task: WorkerTask): Promise<T> {
  const release = await task.slots.acquire(task.signal);
  try {
    return await runWorker<T>(task);
  } finally {
    release();
  }
}

async function runWorker<T>({
  script,
  workerData,
  transferList,
  limits,
  label,
  signal,
}: WorkerTask): Promise<T> {
  // Imported at run time: Turbopack bundles what `new Worker(path)` of a Worker it can trace starts, and for
  // a path known only at run time that is every file of the project, which fails the build.
  const { Worker } = await import(/* webpackIgnore: true */ "node:worker_threads");
  return new Promise<T>((resolve, reject) => {
    const worker = new Worker(scriptPath(script), {
      workerData,
      transferList,
      resourceLimits: { maxOldGenerationSizeMb: limits.heapMb, maxYoungGenerationSizeMb: 16 },
      // The task needs no environment, and whatever it prints is not ours to pass on.
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
              `${label} stopped after ${limits.timeMs / 1000} s: too large or too complex`,
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
        else reject(new ProviderError("invalid_response", reply.message));
      }),
    );
    worker.on("error", (error: Error & { code?: string }) =>
      finish(() =>
        reject(
          error.code === "ERR_WORKER_OUT_OF_MEMORY"
            ? new ProviderError("too_large", `${label} needs more than ${limits.heapMb} MiB of memory`)
            : new ProviderError("invalid_response", `${label} failed: ${error.message}`),
        ),
      ),
    );
    worker.on("exit", (code) =>
      finish(() =>
        reject(new ProviderError("invalid_response", `${label} ended (code ${code}) without a reply`)),
      ),
    );
  });
}

function scriptPath(script: string): string {
  return findWorkerScript(script) ?? path.join(/*turbopackIgnore: true*/ process.cwd(), script);
}

/** Beside the starting bundle (dist/), under the repository root (from source), under the working directory. */
export function findWorkerScript(script: string): string | undefined {
  const here = import.meta.dirname;
  const candidates = here
    ? [path.join(here, path.basename(script)), path.join(here, "../../..", script)]
    : [];
  // Not traced: the scripts are in next.config.ts's outputFileTracingIncludes, and a path built from the
  // working directory would otherwise make the build trace the whole project (tests and sources included).
  candidates.push(path.join(/*turbopackIgnore: true*/ process.cwd(), script));
  return candidates.find((candidate) => existsSync(candidate));
}

/** `capacity` tasks of one kind at once; waiters leave the queue when their signal aborts. */
export function workerSlots(capacity: number): WorkerSlots {
  let free = capacity;
  const waiting: Array<() => void> = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free++;
  };
  return {
    acquire(signal) {
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
    },
  };
}
