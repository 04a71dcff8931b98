/**
 * The command-line entry points compiled as they ship (scripts/build-cli.mjs: the bridge, the CLI, the PDF
 * worker), into a directory of the caller's, so a test runs the build of the sources it sees and never
 * rebuilds the checkout's dist/ under another run.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export async function compileCli(outdir: string): Promise<void> {
  await run(process.execPath, [path.resolve("scripts/build-cli.mjs"), outdir], { timeout: 120_000 });
}
