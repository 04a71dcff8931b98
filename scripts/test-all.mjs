// @ts-check
/**
 * `npm test`: every stage of the suite in order (lint, typecheck, unit + integration in vitest, reliability in
 * vitest, end-to-end in Playwright), each one run even when an earlier one failed, so one run reports everything
 * that is wrong. Ends with a table `stage | result | seconds` and exits non-zero when any stage failed (or was
 * stopped by a signal). Each stage is the npm script of its own (`npm run lint`, `typecheck`, `test:unit`,
 * `test:reliability`, `test:e2e`), so a stage can be rerun alone. Ctrl-C stops the running stage and the rest.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** vitest's results as JSON too, so the run ends by naming each failed test (CI keeps only the output's tail). */
const reportDir = mkdtempSync(path.join(tmpdir(), "smx-test-all-"));
/** @param {string} name */
const jsonReport = (name) => [
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${path.join(reportDir, `${name}.json`)}`,
];

/**
 * Unit and integration files run two at a time; the reliability files (production servers under load, timed
 * restarts) alone, so that no other file competes with them for the machine's cores.
 * @type {Array<[stage: string, script: string, args?: string[]]>}
 */
const STAGES = [
  ["lint", "lint"],
  ["typecheck", "typecheck"],
  ["unit + integration (vitest)", "test:unit", jsonReport("unit")],
  ["reliability (vitest)", "test:reliability", jsonReport("reliability")],
  ["e2e (playwright)", "test:e2e"],
];

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
let interrupted = false;

/** @param {string} script @param {string[]} args @returns {Promise<string>} the stage's result */
function run(script, args) {
  return new Promise((resolve) => {
    const child = spawn(npm, ["run", "--silent", script, ...(args.length > 0 ? ["--", ...args] : [])], {
      stdio: "inherit",
    });
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
for (const [stage, script, args = []] of STAGES) {
  if (interrupted) {
    rows.push({ stage, result: "not run (interrupted)", seconds: "–" });
    continue;
  }
  console.log(`\n── ${stage}: npm run ${script}\n`);
  const started = performance.now();
  const result = await run(script, args);
  rows.push({ stage, result, seconds: ((performance.now() - started) / 1000).toFixed(1) });
}

/**
 * "file > suite > test: first line of its error" for each test vitest failed, and each file that failed to
 * run. vitest's JSON gives a timed-out test only a placeholder for its message.
 */
function vitestFailures() {
  /** @param {string | undefined} message */
  const firstLine = (message) => {
    const line = (message ?? "").split("\n")[0]?.slice(0, 300) ?? "";
    return line === "Error: STACK_TRACE_ERROR" ? "timed out" : line;
  };
  try {
    /** @type {Array<{ testResults: Array<{ name: string, status: string, message?: string, assertionResults: Array<{ fullName: string, status: string, failureMessages: string[] }> }> }>} */
    const reports = readdirSync(reportDir).map((name) =>
      JSON.parse(readFileSync(path.join(reportDir, name), "utf8")),
    );
    return reports
      .flatMap((report) => report.testResults)
      .flatMap((file) => {
        const name = path.relative(process.cwd(), file.name);
        const failed = file.assertionResults.filter((test) => test.status === "failed");
        if (failed.length === 0 && file.status === "failed") return [`${name}: ${firstLine(file.message)}`];
        return failed.map((test) => `${name} > ${test.fullName}: ${firstLine(test.failureMessages[0])}`);
      });
  } catch {
    return [];
  } finally {
    rmSync(reportDir, { recursive: true, force: true });
  }
}
const failedTests = vitestFailures();

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
if (failedTests.length > 0)
  console.log(`\nvitest failed:\n${failedTests.map((line) => `  ${line}`).join("\n")}`);
process.exitCode = failed.length === 0 ? 0 : 1;
