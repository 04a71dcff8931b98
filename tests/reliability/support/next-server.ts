/**
 * `next start` as a child process: the node server itself (no npm or npx in between, so its pid is the
 * server's), on 127.0.0.1 and a free port unless one is given, ready once /api/health answers. Its output
 * goes to a file, never a pipe, so a busy test process cannot stall the server's writes. `stop` sends a
 * signal and reports how the process ended and how long it took.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { type EnvVars, REPO_ROOT, withoutTestEnv } from "./production-build";

interface ServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** From the signal to the exit. */
  ms: number;
}

export interface NextServer {
  url: string;
  port: number;
  pid: number;
  /** The last 64 KB the server printed (stdout and stderr). */
  output(): string;
  /** Resolves when the process has exited, however it ended. */
  readonly exited: Promise<ServerExit>;
  /** Sends `signal`; a process still running `killAfterMs` later is killed (and its exit says SIGKILL). */
  stop(signal?: NodeJS.Signals, killAfterMs?: number): Promise<ServerExit>;
}

export interface StartOptions {
  env: EnvVars;
  port?: number;
  readyTimeoutMs?: number;
  /** Extra node flags for the server process (e.g. `--import` of a probe). */
  nodeOptions?: string;
  /**
   * An assembled standalone app (scripts/assemble-standalone.mjs): its `node server.js` runs instead of
   * `next start`, as the Docker image runs it.
   */
  standaloneDir?: string;
}

const OUTPUT_TAIL = 64 * 1024;

export async function freePort(): Promise<number> {
  const server = net.createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startNextServer(options: StartOptions): Promise<NextServer> {
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const logDir = mkdtempSync(path.join(tmpdir(), "smx-next-start-"));
  const logFile = path.join(logDir, "output.log");
  const logFd = openSync(logFile, "a");
  const standalone = options.standaloneDir;
  const child: ChildProcess = spawn(
    process.execPath,
    standalone
      ? [path.join(standalone, "server.js")]
      : [
          path.join(REPO_ROOT, "node_modules/next/dist/bin/next"),
          "start",
          "-p",
          String(port),
          "-H",
          "127.0.0.1",
        ],
    {
      cwd: standalone ?? REPO_ROOT,
      env: {
        ...withoutTestEnv(process.env),
        ...options.env,
        NODE_ENV: "production",
        NEXT_TELEMETRY_DISABLED: "1",
        NODE_OPTIONS: options.nodeOptions ?? "",
        // Where the standalone server listens (`next start` takes flags instead).
        ...(standalone ? { PORT: String(port), HOSTNAME: "127.0.0.1" } : {}),
      },
      stdio: ["ignore", logFd, logFd],
    },
  );
  closeSync(logFd);
  /** Once the process is gone its tail is kept in memory and the log file removed. */
  let finalOutput: string | undefined;
  const output = () => finalOutput ?? readFileSync(logFile, "utf8").slice(-OUTPUT_TAIL);
  if (child.pid === undefined) throw new Error("next start did not spawn");
  const pid = child.pid;

  let signalledAt = 0;
  const exited = new Promise<ServerExit>((resolve) => {
    child.once("exit", (code, signal) => {
      finalOutput = output();
      rmSync(logDir, { recursive: true, force: true });
      resolve({ code, signal, ms: signalledAt ? Date.now() - signalledAt : 0 });
    });
  });
  let gone = false;
  void exited.then(() => {
    gone = true;
  });

  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  for (;;) {
    if (gone) throw new Error(`next start exited before it was ready:\n${output()}`);
    const health = await fetch(`${url}/api/health`).catch(() => null);
    if (health?.ok) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`next start was not ready within ${options.readyTimeoutMs ?? 60_000} ms:\n${output()}`);
    }
    await sleep(200);
  }

  return {
    url,
    port,
    pid,
    output,
    exited,
    async stop(signal = "SIGTERM", killAfterMs = 30_000) {
      if (gone) return exited;
      signalledAt = Date.now();
      child.kill(signal);
      const killer = setTimeout(() => child.kill("SIGKILL"), killAfterMs);
      try {
        return await exited;
      } finally {
        clearTimeout(killer);
      }
    },
  };
}
