// @ts-check
/**
 * `npm test`: every stage of the suite in order (lint, typecheck, unit + integration in vitest, end-to-end in
 * Playwright), each one run even when an earlier one failed, so one run reports everything that is wrong.
 * Ends with a table `stage | result | seconds` and exits non-zero when any stage failed (or was stopped by a
 * signal). Each stage is the npm script of its own (`npm run lint`, `typecheck`, `test:unit`, `test:e2e`), so
 * a stage can be rerun alone. Ctrl-C stops the running stage and the rest.
 */
import { spawn } from "node:child_process";

/** @type {Array<[stage: string, script: string]>} */
const STAGES = [
  ["lint", "lint"],
  ["typecheck", "typecheck"],
  ["unit + integration (vitest)", "test:unit"],
  ["e2e (playwright)", "test:e2e"],
];

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
let interrupted = false;

/** @param {string} script @returns {Promise<string>} the stage's result */
function run(script) {
  return new Promise((resolve) => {
    const child = spawn(npm, ["run", "--silent", script], { stdio: "inherit" });
    const stop = () => {
      interrupted = true;
      child.kill("SIGINT");
    };
    process.once("SIGINT", stop);
    child.on("error", (error) => resolve(`failed (${error.message})`));
    child.on("exit", (code, signal) => {
      process.off("SIGINT", stop);
      if (signal) resolve(`failed (${signal})`);
      else resolve(code === 0 ? "passed" : `failed (exit ${code})`);
    });
  });
}

/** @type {Array<{ stage: string, result: string, seconds: string }>} */
const rows = [];
for (const [stage, script] of STAGES) {
  if (interrupted) {
    rows.push({ stage, result: "not run (interrupted)", seconds: "–" });
    continue;
  }
  console.log(`\n── ${stage}: npm run ${script}\n`);
  const started = performance.now();
  const result = await run(script);
  rows.push({ stage, result, seconds: ((performance.now() - started) / 1000).toFixed(1) });
}

const widths = {
  stage: Math.max("stage".length, ...rows.map((r) => r.stage.length)),
  result: Math.max("result".length, ...rows.map((r) => r.result.length)),
  seconds: Math.max("seconds".length, ...rows.map((r) => r.seconds.length)),
};
/** @param {{ stage: string, result: string, seconds: string }} row */
const line = (row) =>
  `${row.stage.padEnd(widths.stage)} | ${row.result.padEnd(widths.result)} | ${row.seconds.padStart(widths.seconds)}`;
const total = rows.reduce((sum, r) => sum + (Number(r.seconds) || 0), 0).toFixed(1);
const failed = rows.filter((r) => r.result !== "passed");

console.log(`\n${line({ stage: "stage", result: "result", seconds: "seconds" })}`);
console.log(`${"-".repeat(widths.stage)}-|-${"-".repeat(widths.result)}-|-${"-".repeat(widths.seconds)}`);
for (const row of rows) console.log(line(row));
console.log(
  failed.length === 0
    ? `\nnpm test: all ${rows.length} stages passed in ${total} s`
    : `\nnpm test: ${failed.length} of ${rows.length} stages did not pass (${failed.map((r) => r.stage).join(", ")}); ${total} s in all`,
);
process.exitCode = failed.length === 0 ? 0 : 1;
