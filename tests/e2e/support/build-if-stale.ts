/**
 * The e2e server's build step: `next build` only when .next is older than the sources. In `npm test` the
 * vitest stage has just built the same sources (tests/reliability/support/production-build.ts, standalone
 * output that `next start` serves as well), so the end-to-end stage starts at once instead of building again.
 */
import { ensureProductionBuild } from "@/tests/reliability/support/production-build";

await ensureProductionBuild((line) => console.log(line));
