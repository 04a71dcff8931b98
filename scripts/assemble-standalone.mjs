// @ts-check
/**
 * `node scripts/assemble-standalone.mjs <dir>`: after `next build`, puts the self-hosted app together in
 * <dir>, which then runs with `node server.js` and nothing else — the Dockerfile's image is this directory,
 * and tests/reliability/standalone.test.ts runs it. It holds .next/standalone (the server, the node_modules
 * it traced, the migrations and the embedded database's server), the static assets and public/ that Next
 * leaves out of it, and the compiled CLI in dist/ (scripts/build-cli.mjs: `node dist/db-migrate.mjs`,
 * `node dist/smx.mjs`).
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const target = process.argv[2];
if (!target) {
  console.error("usage: node scripts/assemble-standalone.mjs <dir>");
  process.exit(2);
}
const out = path.resolve(target);
const built = (...parts) => path.join(root, ".next", ...parts);
const buildId = (file) => (existsSync(file) ? readFileSync(file, "utf8") : undefined);
// Next writes the standalone output last: after a failed build it may belong to an older one.
if (
  !buildId(built("BUILD_ID")) ||
  buildId(built("standalone", ".next", "BUILD_ID")) !== buildId(built("BUILD_ID"))
) {
  console.error(
    ".next/standalone is missing or older than .next: run `SEARCHMUX_STANDALONE=1 npm run build` first",
  );
  process.exit(1);
}

rmSync(out, { recursive: true, force: true });
cpSync(built("standalone"), out, { recursive: true });
cpSync(built("static"), path.join(out, ".next", "static"), { recursive: true });
cpSync(path.join(root, "public"), path.join(out, "public"), { recursive: true });
execFileSync(process.execPath, [path.join(root, "scripts", "build-cli.mjs"), path.join(out, "dist")], {
  stdio: "inherit",
});
console.log(`assembled ${path.relative(process.cwd(), out) || "."}: node server.js`);
