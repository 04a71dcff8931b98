/**
 * Finds the embedded database server for a data directory, starting it when none is running.
 * The server (embedded-server.mjs) is a detached process shared by every process using the same
 * directory; it exits on its own once no client has been connected for a while. Clients authenticate
 * with the password kept in the data directory (embedded-auth.mjs).
 */
import { spawn } from "node:child_process";
import { mkdirSync, openSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { embeddedPassword } from "./embedded-auth.mjs";

const START_TIMEOUT_MS = 60_000;

interface ServerInfo {
  pid: number;
  port: number;
}

function readServerInfo(dataDir: string): ServerInfo | undefined {
  try {
    const info = JSON.parse(readFileSync(path.join(dataDir, "server.json"), "utf8")) as ServerInfo;
    return Number.isInteger(info.port) ? info : undefined;
  } catch {
    return undefined;
  }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/**
 * The embedded database server's script under the app's directory `root`: the project root, which is the
 * working directory of `next`, `npm run` and the standalone server. A build may leave it out (next.config.ts).
 */
export function embeddedServerScript(root: string = process.cwd()): string {
  return path.join(/*turbopackIgnore: true*/ root, "lib/db/embedded-server.mjs");
}

function startServer(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const log = openSync(path.join(dataDir, "server.log"), "a", 0o600);
  const root = process.cwd();
  const child = spawn(process.execPath, [embeddedServerScript(root), dataDir, path.join(root, "drizzle")], {
    detached: true,
    stdio: ["ignore", log, log],
    cwd: root,
  });
  child.unref();
}

/** Connection URL (with its password) of the running embedded server for `dataDir`, starting one if needed. */
export async function embeddedDatabaseUrl(dataDir: string): Promise<string> {
  // Created here, before any server starts, so a client and the server it starts agree on it.
  const password = embeddedPassword(dataDir);
  const urlFor = (port: number) => `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  const running = readServerInfo(dataDir);
  if (running && (await canConnect(running.port))) return urlFor(running.port);

  startServer(dataDir);
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const info = readServerInfo(dataDir);
    if (info && info.port !== running?.port && (await canConnect(info.port))) return urlFor(info.port);
    await sleep(100);
  }
  throw new Error(
    `embedded database did not start within ${START_TIMEOUT_MS / 1000}s; see ${dataDir}/server.log`,
  );
}
