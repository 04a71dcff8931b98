/**
 * A Redis server of a test's own, on a free loopback port, that the test stops and starts again to see
 * what the app does while its KV store is down and after it is back. Nothing is saved: a stop discards
 * every key, and `stop` leaves no process or file behind.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import { freePort } from "@/tests/reliability/support/next-server";
import { generous } from "./generous";

const run = promisify(execFile);

export interface OwnRedis {
  url: string;
  port: number;
  /** Starts the server (again) on the same port; resolves once it answers PING. */
  start(): Promise<void>;
  /** Shuts it down without saving; resolves once the port refuses connections. */
  stop(): Promise<void>;
  /** Stops it if running and removes its directory. */
  remove(): Promise<void>;
}

async function answers(port: number): Promise<boolean> {
  const reply = await run("redis-cli", ["-h", "127.0.0.1", "-p", String(port), "ping"]).catch(() => null);
  return reply?.stdout.trim() === "PONG";
}

/** Polls until the server's answering is `expected`; a redis-server that takes 10× a second to start is broken. */
async function until(port: number, expected: boolean): Promise<void> {
  const deadline = Date.now() + generous(1_000);
  while ((await answers(port)) !== expected) {
    if (Date.now() > deadline)
      throw new Error(`redis-server on ${port} did not ${expected ? "start" : "stop"}`);
    await sleep(50);
  }
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), "smx-redis-"));
  const redis: OwnRedis = {
    url: `redis://127.0.0.1:${port}`,
    port,
    async start() {
      await run("redis-server", [
        ...["--port", String(port), "--bind", "127.0.0.1", "--daemonize", "yes"],
        ...["--save", "", "--appendonly", "no", "--dir", dir, "--pidfile", path.join(dir, "redis.pid")],
      ]);
      await until(port, true);
    },
    async stop() {
      await run("redis-cli", ["-h", "127.0.0.1", "-p", String(port), "shutdown", "nosave"]).catch(() => null);
      await until(port, false);
    },
    async remove() {
      if (await answers(port)) await redis.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await redis.start();
  return redis;
}
