import { spawn } from "node:child_process";
import { once } from "node:events";
import { expect, it } from "vitest";
import { generous } from "@/tests/support/generous";

/**
 * A process whose stdout nobody reads: every log line waits in the logger's buffer. 40 MB of lines must
 * leave the process's memory bounded and the lines beyond the buffer counted as dropped, and an error line
 * (written at once when stdout takes it) must not stall the process on the full pipe.
 */
const CHILD = `
import { log } from "@/lib/observability/logger";
import { metrics } from "@/lib/observability/metrics";
const gc = globalThis.gc;
gc();
const before = process.memoryUsage().heapUsed;
const line = "x".repeat(10_000);
for (let i = 0; i < 4_000; i++) log().info({ i, line }, "filler");
log().error("written at once when stdout takes it, else buffered");
gc();
const grownMb = (process.memoryUsage().heapUsed - before) / 2 ** 20;
const dropped = (await metrics().dropped.get()).values.find((v) => v.labels.queue === "logs")?.value ?? 0;
// Exiting would flush the buffer synchronously into the blocked pipe; the test only needs the report.
process.stderr.write(JSON.stringify({ grownMb, dropped }) + "\\n", () => process.kill(process.pid, "SIGKILL"));
`;

it("drops and counts log lines beyond its buffer when stdout does not drain, instead of growing or stalling", async () => {
  const child = spawn(
    process.execPath,
    ["--expose-gc", "--import", "tsx", "--input-type=module", "-e", CHILD],
    {
      cwd: process.cwd(),
      env: { ...process.env, LOG_LEVEL: "info" },
      stdio: ["ignore", "pipe", "pipe"],
      // A child stalled on the full pipe is killed (and the report missing fails the test), not left behind.
      timeout: generous(5_000),
      killSignal: "SIGKILL",
    },
  );
  // stdout is never read: the pipe fills (64 KB) and the logger's writes stay pending.
  child.stdout.pause();
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  await once(child, "exit");
  const report = JSON.parse(stderr.trim().split("\n").at(-1) ?? "{}") as { grownMb: number; dropped: number };
  expect(report.dropped).toBeGreaterThan(3_000);
  expect(report.grownMb).toBeLessThan(16);
}, 60_000);
