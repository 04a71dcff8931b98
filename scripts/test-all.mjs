// @ts-check
/**
 * `npm test`: every stage of the suite (lint, typecheck, the production build, unit + integration in vitest,
 * end-to-end in Playwright, reliability and load in vitest), each one run even when an earlier one failed, so
 * one run reports everything that is wrong. Ends with a table `stage | result | seconds` and exits non-zero
 * when any stage failed (or was stopped by a signal). Each stage is the npm script of its own (`npm run lint`,
 * `typecheck`, `test:build`, `test:unit`, `test:e2e`, `test:reliability`, `test:load`), so a stage can be rerun
 * alone. Ctrl-C stops the running stages and the rest.
 *
 * On two cores the stages share the machine where one leaves it idle: the production build runs beside lint
 * and typecheck (one core each at most) and on into the unit stage; the reliability files (in-process faults,
 * servers started and stopped, mostly waiting on deadlines) beside the end-to-end specs; the load tests, whose
 * throughput and restarts need the machine to themselves, last and alone. A stage run beside another prints its
 * output when it ends.
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

const npm = process.platform === "win32" ? "npm.cmd" : "npm";
/** @type {Set<import("node:child_process").ChildProcess>} */
const running = new Set();
let interrupted = false;
process.on("SIGINT", () => {
  interrupted = true;
  for (const child of running) child.kill("SIGINT");
});

/** @typedef {{ stage: string, result: string, seconds: string }} Row */

/**
 * Starts `npm run <script> -- <args>`. Its output goes to the terminal as it comes, or, `beside` another
 * stage, is kept and printed when it ends.
 * @param {string} stage @param {string} script @param {string[]} [args] @param {{ beside?: boolean }} [options]
 * @returns {Promise<Row>}
 */
function start(stage, script, args = [], { beside = false } = {}) {
  if (interrupted) return Promise.resolve({ stage, result: "not run (interrupted)", seconds: "–" });
  console.log(`\n── ${stage}: npm run ${script}${beside ? " (its output follows when it ends)" : ""}\n`);
  const started = performance.now();
  const child = spawn(npm, ["run", "--silent", script, ...(args.length > 0 ? ["--", ...args] : [])], {
    stdio: beside ? ["ignore", "pipe", "pipe"] : "inherit",
  });
  running.add(child);
  /** @type {Buffer[]} */
  const output = [];
  child.stdout?.on("data", (chunk) => output.push(chunk));
  child.stderr?.on("data", (chunk) => output.push(chunk));
  return new Promise((resolve) => {
    /** @param {string} result */
    const end = (result) => {
      running.delete(child);
      if (beside) {
        console.log(`\n── ${stage}: its output\n`);
        process.stdout.write(Buffer.concat(output));
      }
      resolve({ stage, result, seconds: ((performance.now() - started) / 1000).toFixed(1) });
    };
    child.on("error", (error) => end(`failed (${error.message})`));
    child.on("exit", (code, signal) => {
      if (signal) end(`failed (${signal})`);
      else end(code === 0 ? "passed" : `failed (exit ${code})`);
    });
  });
}

/** @param {string} stage @param {string} reason @returns {Row} */
const skipped = (stage, reason) => ({ stage, result: `not run (${reason})`, seconds: "–" });

const runStarted = performance.now();
/** @type {Row[]} */
const rows = [];
const build = start("production build", "test:build", [], { beside: true });
rows.push(await start("lint", "lint"));
rows.push(await start("typecheck", "typecheck"));
rows.push(await start("unit + integration (vitest)", "test:unit", jsonReport("unit")));
const built = await build;
rows.push(built);
const LATER = ["e2e (playwright)", "reliability (vitest, beside e2e)", "load (vitest)"];
if (built.result !== "passed") {
  rows.push(...LATER.map((stage) => skipped(stage, "no production build")));
} else {
  const [e2eStage, reliabilityStage, loadStage] = LATER;
  const reliability = start(reliabilityStage, "test:reliability", jsonReport("reliability"), {
    beside: true,
  });
  rows.push(await start(e2eStage, "test:e2e"));
  rows.push(await reliability);
  rows.push(await start(loadStage, "test:load", jsonReport("load")));
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
/** @param {Row} row */
const line = (row) =>
  `${row.stage.padEnd(widths.stage)} | ${row.result.padEnd(widths.result)} | ${row.seconds.padStart(widths.seconds)}`;
const total = ((performance.now() - runStarted) / 1000).toFixed(1);
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
