/**
 * The command-line entry points compiled as they ship (scripts/build-cli.mjs: the bridge, the CLI, the PDF
 * worker), into a directory of the caller's, so a test runs the build of the sources it sees and never
 * rebuilds the checkout's dist/ under another run.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export async function compileCli(outdir: string): Promise<void> {
  await run(process.execPath, [path.resolve("scripts/build-cli.mjs"), outdir], { timeout: 120_000 });
}

/** How a CLI run ended: its exit code and what it printed. */
export interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The operator CLI as it ships (`smx.mjs`), compiled once by `build` for the test file that makes it: a run
 * then starts in a second or two, where `tsx scripts/smx.ts` compiled the sources again each time (3 s idle,
 * 11 s on a loaded machine, for tests making several runs each).
 */
export function operatorCli() {
  const dir = mkdtempSync(path.join(tmpdir(), "smx-cli-build-"));
  const entry = path.join(dir, "smx.mjs");
  return {
    build: () => compileCli(dir),
    run: (args: readonly string[], env: NodeJS.ProcessEnv): Promise<CliOutcome> =>
      run(process.execPath, [entry, ...args], { env }).then(
        ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
        (error: CliOutcome) => error,
      ),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
