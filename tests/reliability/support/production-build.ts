/**
 * One `next build` shared by every reliability file and the benchmark, with the standalone output the
 * Docker image runs (SEARCHMUX_STANDALONE=1; `next start` serves the same build): `.next` is rebuilt only
 * when it is missing, older than the sources or has no standalone output of its own (`npm run build` and
 * the end-to-end tests make none), and a lock directory makes concurrent callers (vitest forks, a bench run)
 * wait for the one build instead of starting their own.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/** Environment variables as a child process gets them. */
export type EnvVars = Record<string, string | undefined>;

export const REPO_ROOT = path.resolve(import.meta.dirname, "../../..");
const BUILD_ID = path.join(REPO_ROOT, ".next", "BUILD_ID");
const STANDALONE_BUILD_ID = path.join(REPO_ROOT, ".next", "standalone", ".next", "BUILD_ID");
/** A build made with SEARCHMUX_EMBEDDED_DATABASE=0 lacks it; the tests run the embedded database too. */
const STANDALONE_EMBEDDED = path.join(REPO_ROOT, ".next", "standalone", "lib", "db", "embedded-server.mjs");
/** What scripts/build-workers.mjs makes before `next build`, which `next start` reads from the checkout. */
const WORKER_BUNDLE = path.join(REPO_ROOT, ".workers", "html-worker.mjs");
/** What `next build` compiles; drizzle/ is read at run time and needs no build. */
const SOURCES = [
  "app",
  "lib",
  "components",
  "public",
  "instrumentation.ts",
  "next.config.ts",
  "package.json",
  "tsconfig.json",
  "postcss.config.mjs",
  "types",
];
/** A build takes 2–3 minutes on an idle 2-core machine and went past 8 on a loaded one. */
const BUILD_TIMEOUT_MS = 20 * 60_000;
/** A lock older than this belongs to a build that died. */
const STALE_LOCK_MS = BUILD_TIMEOUT_MS + 60_000;

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce(
    (newest, name) => Math.max(newest, newestMtime(path.join(entry, name))),
    stat.mtimeMs,
  );
}

/**
 * True when `.next` holds a standalone build with the embedded database, at least as new as every source file,
 * and the worker bundles are there.
 */
function buildIsFresh(): boolean {
  if (
    !existsSync(BUILD_ID) ||
    !existsSync(STANDALONE_BUILD_ID) ||
    !existsSync(STANDALONE_EMBEDDED) ||
    !existsSync(WORKER_BUNDLE)
  )
    return false;
  if (readFileSync(BUILD_ID, "utf8") !== readFileSync(STANDALONE_BUILD_ID, "utf8")) return false;
  const built = statSync(BUILD_ID).mtimeMs;
  return SOURCES.every((source) => newestMtime(path.join(REPO_ROOT, source)) <= built);
}

const lockDir = () =>
  path.join(
    tmpdir(),
    `searchmux-build-${createHash("sha256").update(REPO_ROOT).digest("hex").slice(0, 12)}.lock`,
  );

async function withBuildLock<T>(fn: () => Promise<T>): Promise<T> {
  const lock = lockDir();
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      const age = existsSync(lock) ? Date.now() - statSync(lock).mtimeMs : 0;
      if (age > STALE_LOCK_MS) rmSync(lock, { recursive: true, force: true });
      else await sleep(1_000);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function runNextBuild(): { ok: true } | { ok: false; busy: boolean; output: string } {
  try {
    // What `npm run build` runs first: the worker bundles the build's tracing copies (next.config.ts).
    execFileSync(process.execPath, [path.join(REPO_ROOT, "scripts/build-workers.mjs")], {
      cwd: REPO_ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    execFileSync(process.execPath, [path.join(REPO_ROOT, "node_modules/next/dist/bin/next"), "build"], {
      cwd: REPO_ROOT,
      env: {
        ...withoutTestEnv(process.env),
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
        SEARCHMUX_STANDALONE: "1",
        SEARCHMUX_EMBEDDED_DATABASE: "1",
        // `npm test` type-checks in a stage of its own (next.config.ts).
        SEARCHMUX_BUILD_SKIP_TYPECHECK: "1",
      },
      stdio: ["ignore", "pipe", "pipe"],
      timeout: BUILD_TIMEOUT_MS,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { ok: true };
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: Buffer; stderr?: Buffer };
    const output = `${stdout?.toString() ?? ""}${stderr?.toString() ?? ""}`;
    // Someone else's `next build` (another checkout tool, a Playwright run) holds .next/lock.
    return { ok: false, busy: output.includes("Another next build process is already running"), output };
  }
}

/**
 * Marks that this run has a build it trusts, so sources edited later do not trigger a rebuild mid-run.
 * A run is the parent process: vitest's main process for its forked test files, npm for the bench.
 */
const runMarker = () => `${lockDir()}.run-${process.ppid}`;
let checked = false;
const markChecked = () => {
  checked = true;
  writeFileSync(runMarker(), "");
};

/**
 * Builds the app unless a fresh build exists (once per process); returns whether it built.
 * SMX_REUSE_BUILD=1 takes any existing build as it is (a tree whose sources keep changing).
 */
export async function ensureProductionBuild(log: (line: string) => void = () => {}): Promise<boolean> {
  const reuse = process.env.SMX_REUSE_BUILD === "1" || existsSync(runMarker());
  if (checked || (reuse && existsSync(BUILD_ID)) || buildIsFresh()) {
    markChecked();
    return false;
  }
  return withBuildLock(async () => {
    const deadline = Date.now() + BUILD_TIMEOUT_MS;
    while (!buildIsFresh()) {
      log("next build (sources are newer than .next) …");
      const started = Date.now();
      const build = runNextBuild();
      if (build.ok) {
        log(`next build done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
        markChecked();
        return true;
      }
      if (!build.busy || Date.now() > deadline) throw new Error(`next build failed:\n${build.output}`);
      log("another next build is running; waiting for it");
      await sleep(5_000);
    }
    markChecked();
    return false;
  });
}

/** The environment minus what vitest sets for its workers, which must not leak into the app. */
export function withoutTestEnv(env: EnvVars): EnvVars {
  return Object.fromEntries(
    Object.entries(env).filter(
      ([name]) => !name.startsWith("VITEST") && name !== "TEST" && name !== "NODE_ENV",
    ),
  );
}
