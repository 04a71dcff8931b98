import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { generous } from "@/tests/support/generous";

/**
 * When the process logger's lines reach stdout (#29, "logs arrive minutes late": the logger wrote only
 * once 4 KB had piled up, so a quiet server's request line appeared minutes later and an error only at
 * SIGTERM). A child process logs a few short lines (far below 4 KB) through the real logger onto a real
 * pipe, then idles, crashes or is killed; the test counts the lines that arrived. No timing is asserted:
 * a SIGKILL writes nothing, so a line seen after one was written before it.
 */
const CHILD = `
import { log } from "@/lib/observability/logger";
const [mode, count] = process.argv.slice(-2);
for (let i = 0; i < Number(count); i++) log().info({ i }, "line");
const kill = () => process.kill(process.pid, "SIGKILL");
if (mode === "idle") setTimeout(kill, ${generous(1_000)});
if (mode === "frozen") kill();
if (mode === "error") { log().error(new Error("the provider table is gone"), "failed"); kill(); }
if (mode === "throw") throw new Error("crash");
if (mode === "reject") Promise.reject(new Error("crash"));
if (mode === "exit") process.exit(3);
`;

/** This environment as a server's: without the variables that say serverless (the test sets them itself). */
const notServerless = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => name !== "VERCEL" && name !== "AWS_LAMBDA_FUNCTION_NAME"),
);

type Mode = "idle" | "frozen" | "error" | "throw" | "reject" | "exit";

/**
 * Runs the child in `mode` after `count` lines; `killOnLines` kills it once that many lines arrived.
 * Resolves with the messages seen and how the child ended.
 */
async function runChild(mode: Mode, count: number, killOnLines?: number, env: Record<string, string> = {}) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "-e", CHILD, "--", mode, String(count)],
    {
      cwd: process.cwd(),
      env: { ...notServerless, NODE_ENV: "test", LOG_LEVEL: "info", ...env },
      stdio: ["ignore", "pipe", "ignore"],
    },
  );
  let stdout = "";
  const messages = () =>
    stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    if (killOnLines !== undefined && messages().length >= killOnLines) child.kill("SIGKILL");
  });
  // "close": the process has exited and its stdout has ended, so every line it wrote is in.
  const [code, signal] = (await once(child, "close")) as [number | null, NodeJS.Signals | null];
  return { messages: messages(), code, signal };
}

describe("log delivery", () => {
  it("writes a quiet process's lines by themselves, while it still runs", async () => {
    // The child would kill itself (SIGKILL: nothing flushed) after 10 s; the test kills it as soon as the
    // three lines arrive. Before the fix they waited for 4 KB more, and the child died with them unwritten.
    const { messages, signal } = await runChild("idle", 3, 3);
    expect(signal).toBe("SIGKILL");
    expect(messages).toEqual(["line", "line", "line"]);
  });

  // A function frozen after its response runs no timer and may never thaw: the line must be out already.
  it("writes each line before the call returns on a serverless platform", async () => {
    const { messages, signal } = await runChild("frozen", 3, undefined, { VERCEL: "1" });
    expect(signal).toBe("SIGKILL");
    expect(messages).toEqual(["line", "line", "line"]);
  });

  it("writes an error line, and the lines before it, before the call returns", async () => {
    const { messages, signal } = await runChild("error", 4);
    expect(signal).toBe("SIGKILL");
    expect(messages).toEqual(["line", "line", "line", "line", "failed"]);
  });

  it.each([
    ["an uncaught exception", "throw" as const, 1],
    ["an unhandled rejection", "reject" as const, 1],
    ["process.exit()", "exit" as const, 3],
  ])("loses no line on %s", async (_, mode, exitCode) => {
    const { messages, code } = await runChild(mode, 5);
    expect(code).toBe(exitCode);
    expect(messages).toEqual(["line", "line", "line", "line", "line"]);
  });
});
