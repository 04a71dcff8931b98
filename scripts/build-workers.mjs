// @ts-check
/**
 * Worker threads written in TypeScript (with the `@/` path aliases), bundled to plain ES modules a worker can
 * start: Node runs neither TypeScript nor the aliases there. Each entry becomes one self-contained file in
 * .workers/ (gitignored), its dependencies included:
 *   .workers/html-worker.mjs  HTML → Markdown (lib/engine/fetch/extract/html-worker.ts)
 *
 * `npm run build` runs this before `next build` (next.config.ts traces .workers/ into the build and the
 * standalone output), and so does the test suite's build (tests/reliability/support/production-build.ts);
 * scripts/build-cli.mjs bundles the same entries into dist/. From source (vitest, tsx, `next dev`) the
 * conversion calls `ensureWorkerBundle`, which builds an entry on first use when its file is missing or older
 * than any file it was built from (listed in `<name>.inputs.json` beside it). Each build writes under a name of
 * its own and renames into place, so concurrent processes never start a half-written file.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const outdir = path.join(root, ".workers");

/** Worker entries, by the name their bundle takes. */
export const WORKER_ENTRIES = { "html-worker": "lib/engine/fetch/extract/html-worker.ts" };

/** @param {keyof typeof WORKER_ENTRIES} name */
const bundlePath = (name) => path.join(outdir, `${name}.mjs`);
/** @param {keyof typeof WORKER_ENTRIES} name */
const inputsPath = (name) => path.join(outdir, `${name}.inputs.json`);

/** @param {keyof typeof WORKER_ENTRIES} name */
function isFresh(name) {
  if (!existsSync(bundlePath(name)) || !existsSync(inputsPath(name))) return false;
  const built = statSync(bundlePath(name)).mtimeMs;
  /** @type {string[]} */
  const inputs = JSON.parse(readFileSync(inputsPath(name), "utf8"));
  return inputs.every((input) => {
    const file = path.join(root, input);
    return existsSync(file) && statSync(file).mtimeMs <= built;
  });
}

/** @param {keyof typeof WORKER_ENTRIES} name */
async function buildWorker(name) {
  const { build } = await import("esbuild");
  const unique = `${process.pid}-${Math.random().toString(36).slice(2)}`;
  const outfile = path.join(outdir, `${name}.${unique}.tmp.mjs`);
  mkdirSync(outdir, { recursive: true });
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: [WORKER_ENTRIES[name]],
    outfile,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    tsconfig: "tsconfig.json",
    metafile: true,
    legalComments: "none",
    logLevel: "warning",
  });
  const inputsTmp = path.join(outdir, `${name}.${unique}.tmp.json`);
  writeFileSync(inputsTmp, JSON.stringify(Object.keys(metafile.inputs)));
  // The list first: a bundle renamed into place is never judged by an older list.
  renameSync(inputsTmp, inputsPath(name));
  renameSync(outfile, bundlePath(name));
}

/** The bundle of `name`, built first when it is missing or older than its sources. */
export async function ensureWorkerBundle(/** @type {keyof typeof WORKER_ENTRIES} */ name) {
  if (!isFresh(name)) await buildWorker(name);
  return bundlePath(name);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const name of /** @type {(keyof typeof WORKER_ENTRIES)[]} */ (Object.keys(WORKER_ENTRIES))) {
    await buildWorker(name);
  }
  console.log(`built .workers/{${Object.keys(WORKER_ENTRIES).join(",")}}.mjs`);
}
