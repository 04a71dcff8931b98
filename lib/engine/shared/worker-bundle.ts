/**
 * A worker written in TypeScript runs from a bundle (scripts/build-workers.mjs): `.workers/<name>.mjs`, which
 * `npm run build` makes before `next build`, or `<name>.mjs` beside the command-line bundle (dist/). Before
 * the first task of that worker, `workerBundleReady` makes sure there is one:
 * - in production (NODE_ENV=production: `next start`, the standalone server) it must have been built: a
 *   server without it refuses to start (workerBundleProblem, instrumentation.ts), and its tasks would fail
 *   with the same message;
 * - in a checkout (vitest, tsx, `next dev`) it is built on first use, and rebuilt when older than its
 *   sources (about a second, once per process);
 * - anywhere else (dist/) it is the file beside the bundle.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { findWorkerScript } from "@/lib/engine/shared/run-in-worker";

type WorkerName = "html-worker";

/** The path runInWorker is given for a bundled worker. */
export const bundledWorkerScript = (name: WorkerName) => `.workers/${name}.mjs`;

const BUILD_SCRIPT = "scripts/build-workers.mjs";
const ready = new Map<WorkerName, Promise<void>>();

export function workerBundleReady(name: WorkerName): Promise<void> {
  let promise = ready.get(name);
  if (!promise) {
    promise = prepare(name);
    // A failed build is tried again by the next task rather than remembered.
    promise.catch(() => ready.delete(name));
    ready.set(name, promise);
  }
  return promise;
}

async function prepare(name: WorkerName): Promise<void> {
  const script = bundledWorkerScript(name);
  const found = findWorkerScript(script);
  const beside = import.meta.dirname && found === path.join(import.meta.dirname, path.basename(script));
  const checkout = process.env.NODE_ENV === "production" || beside ? undefined : checkoutRoot();
  if (checkout) {
    // A path known only at run time, left to Node: the build's tracing never sees esbuild.
    const builder = await import(
      /* webpackIgnore: true */ pathToFileURL(path.join(checkout, BUILD_SCRIPT)).href
    );
    await builder.ensureWorkerBundle(name);
    return;
  }
  if (!found) throw new Error(missingMessage(script));
}

/** A start check: a production server whose build lacks a worker bundle would fail every large page. */
export function workerBundleProblem(env: Readonly<Record<string, string | undefined>>): string | undefined {
  if (env.NODE_ENV !== "production") return undefined;
  const script = bundledWorkerScript("html-worker");
  return findWorkerScript(script) ? undefined : missingMessage(script);
}

const missingMessage = (script: string) =>
  `${script} is missing: the server runs it in a worker thread; build it with \`npm run build\` (or \`node ${BUILD_SCRIPT}\` before \`next build\`)`;

/** The repository root when running from source: from this file (vitest, tsx), or the working directory (`next dev`). */
function checkoutRoot(): string | undefined {
  const candidates = [process.cwd()];
  if (import.meta.dirname) candidates.unshift(path.join(import.meta.dirname, "../../.."));
  return candidates.find((root) => existsSync(path.join(root, BUILD_SCRIPT)));
}
