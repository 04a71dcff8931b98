// Adds the lock entries npm leaves out when the registry it installs from lacks some platform builds
// of optional dependencies (e.g. darwin/win32 binaries of biome, next's swc, tailwind's oxide). Without
// them `npm ci` reports the lock out of sync with package.json. The added entries are optional and
// carry the os/cpu npm needs to skip them on other platforms. Run after changing dependencies:
//   npm install && node scripts/complete-lockfile.mjs
import { readFileSync, writeFileSync } from "node:fs";

const PLATFORM =
  /(android|darwin|freebsd|linux|openbsd|sunos|win32)-(arm64|arm|x64|ia32|riscv64|ppc64|s390x|loong64)/;
/** os/cpu/libc as the real packages declare them, read off the conventional package name. */
function platformFields(name) {
  if (name.includes("wasm32")) return { cpu: ["wasm32"] };
  const match = PLATFORM.exec(name);
  if (!match) return {};
  const libc = name.includes("musl") ? { libc: ["musl"] } : name.includes("gnu") ? { libc: ["glibc"] } : {};
  return { os: [match[1]], cpu: [match[2]], ...libc };
}

const lockPath = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(readFileSync(lockPath, "utf8"));
const packages = lock.packages;
let added = 0;

for (const [location, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${location ? `${location}/` : ""}node_modules/${name}`;
    if (packages[nested] || packages[`node_modules/${name}`]) continue;
    packages[`node_modules/${name}`] = {
      version,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      ...platformFields(name),
    };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))),
);
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} optional platform entries`);
