/**
 * `npm run test:build`: the production build the reliability files and the end-to-end server run, made only
 * when .next is missing or older than the sources (tests/reliability/support/production-build.ts). `npm test`
 * runs it beside lint and typecheck; the end-to-end server's command runs it too, and finds it fresh.
 */
import { ensureProductionBuild } from "@/tests/reliability/support/production-build";

await ensureProductionBuild((line) => console.log(line));
