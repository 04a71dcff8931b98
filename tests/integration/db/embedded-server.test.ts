import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createDatabase } from "@/lib/db/client";
import { embeddedDatabaseUrl } from "@/lib/db/embedded";
import { tenants } from "@/lib/db/schema";
import { stopEmbeddedServer } from "@/tests/support/database";

const dataDir = mkdtempSync(path.join(tmpdir(), "smx-embedded-"));
const serverPid = () =>
  (JSON.parse(readFileSync(path.join(dataDir, "server.json"), "utf8")) as { pid: number }).pid;

async function waitForExit(pid: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await sleep(50);
  }
  throw new Error(`process ${pid} did not exit`);
}

describe("embedded database server", { timeout: 90_000 }, () => {
  afterAll(() => {
    stopEmbeddedServer(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("starts one server per data directory however many processes ask at once", async () => {
    const urls = await Promise.all(Array.from({ length: 4 }, () => embeddedDatabaseUrl(dataDir)));
    expect(new Set(urls).size).toBe(1);
    const lockHolder = Number(readFileSync(path.join(dataDir, "server.lock"), "utf8"));
    expect(lockHolder).toBe(serverPid());
  });

  it("keeps data across a server restart", async () => {
    const first = await createDatabase({ driver: "embedded", dataDir });
    await first.withSystem((tx) => tx.insert(tenants).values({ name: "survivor" }));
    await first.close();
    const oldPid = serverPid();
    stopEmbeddedServer(dataDir);
    await waitForExit(oldPid);

    const second = await createDatabase({ driver: "embedded", dataDir });
    const names = await second.withSystem((tx) => tx.select({ name: tenants.name }).from(tenants));
    await second.close();
    expect(names.map((n) => n.name)).toContain("survivor");
    expect(serverPid()).not.toBe(oldPid);
  });

  it("rolls back the open transaction of a client that disconnects, and serves the next client", async () => {
    const url = await embeddedDatabaseUrl(dataDir);
    const dying = new pg.Client({ connectionString: url });
    dying.on("error", () => {});
    await dying.connect();
    await dying.query("begin");
    await dying.query("insert into tenants (name) values ('uncommitted')");
    (dying as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();

    const next = new pg.Client({ connectionString: url });
    await next.connect();
    const rows = await next.query("select count(*)::int as n from tenants where name = 'uncommitted'");
    const state = await next.query("select 1 as alive");
    await next.end();
    expect(rows.rows[0].n).toBe(0);
    expect(state.rows[0].alive).toBe(1);
  });
});
