// @ts-check
/**
 * `npm run build:cli` (also run by `npm run pack:cli` and scripts/assemble-standalone.mjs): compiles the entry
 * points to plain JavaScript in dist/, so they run with node alone — no TypeScript runtime, no path aliases, no
 * node_modules beside them (a packed `npx searchmux`, the standalone Docker image):
 *   dist/searchmux.mjs   the stdio MCP bridge (`searchmux mcp`, package.json `bin`)
 *   dist/smx.mjs         the operator CLI (`npm run smx` runs its source with tsx in a checkout)
 *   dist/db-migrate.mjs  `npm run db:migrate`'s migrations, for images without the sources
 *   dist/pdf-worker.mjs  the PDF parser's worker thread, found beside the bundle at run time
 *   dist/schema-worker.mjs  the JSON Schema compiler's worker thread, likewise
 *   dist/html-worker.mjs    the HTML converter's worker thread (scripts/build-workers.mjs's entries), likewise
 * Every dependency is bundled but the optional native add-ons the drivers try to load. (The embedded
 * database runs in its own process from lib/db/embedded-server.mjs, which a checkout or image has.)
 * dist/ is also the npm package (`npm pack ./dist`): its own package.json names the bridge as `bin` and
 * declares no dependencies, as the bundle needs none (the checkout's package.json is the server's).
 */
import { copyFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { WORKER_ENTRIES } from "./build-workers.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
/** dist/, or the directory given (tests build their own copy: `node scripts/build-cli.mjs <dir>`). */
const outdir = path.resolve(process.argv[2] ?? path.join(root, "dist"));

rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: {
    searchmux: "scripts/searchmux.ts",
    smx: "scripts/smx.ts",
    "db-migrate": "scripts/db-migrate.ts",
    "pdf-worker": "lib/engine/fetch/extract/pdf-worker.mjs",
    "schema-worker": "lib/engine/extract/schema-worker.mjs",
    ...WORKER_ENTRIES,
  },
  outdir,
  outExtension: { ".js": ".mjs" },
  bundle: true,
  splitting: true,
  // Chunks beside the entries: a worker script is looked up in the directory of the code that starts it.
  chunkNames: "[name]-[hash]",
  format: "esm",
  platform: "node",
  target: "node20",
  tsconfig: "tsconfig.json",
  // Bundled CommonJS modules use require() (node's built-ins) and __dirname, which an ES module lacks.
  banner: {
    js: [
      'import { createRequire as __smxRequire } from "node:module";',
      'import { fileURLToPath as __smxPath } from "node:url";',
      "const require = __smxRequire(import.meta.url);",
      "const __filename = __smxPath(import.meta.url);",
      'const __dirname = __smxPath(new URL(".", import.meta.url));',
    ].join("\n"),
  },
  external: ["pg-native", "bufferutil", "utf-8-validate"],
  legalComments: "none",
  logLevel: "warning",
});
const server = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
const { name, version, description, license, engines } = server;
const manifest = {
  name,
  version,
  description,
  license,
  type: "module",
  bin: { searchmux: "searchmux.mjs" },
  engines,
};
writeFileSync(path.join(outdir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
for (const doc of ["README.md", "LICENSE"]) copyFileSync(path.join(root, doc), path.join(outdir, doc));
console.log(
  `built ${path.relative(process.cwd(), outdir) || "."}/{searchmux,smx,db-migrate,pdf-worker,schema-worker,html-worker}.mjs and its package.json`,
);
