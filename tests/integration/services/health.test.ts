import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "@/lib/db/client";
import { DatabaseNotMigratedError } from "@/lib/db/migrations";
import { createMemoryKv } from "@/lib/kv/memory";
import { createRedisKv } from "@/lib/kv/redis";
import { checkHealth } from "@/lib/services/health/check-health";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";

describe("checkHealth", () => {
  let t: TestDatabase;
  const kv = createMemoryKv();
  const embedded = { version: "x", sharedDatabase: false };
  beforeAll(async () => {
    t = await (databaseTargets()[0] as NonNullable<ReturnType<typeof databaseTargets>[0]>).create();
  });
  afterAll(async () => {
    await kv.close();
    await t?.cleanup();
  });

  it("reports every part ok with a reachable database and store", async () => {
    const health = await checkHealth({
      ctx: { db: async () => t.db, kv: () => kv },
      input: { version: "1.2.3", sharedDatabase: false },
    });
    expect(health).toMatchObject({ status: "ok", version: "1.2.3", db: "ok", kv: "ok", providers: "ok" });
    expect(health).not.toHaveProperty("reason");
    expect(health.providers_available).toEqual(expect.arrayContaining(["duckduckgo", "wikipedia"]));
  });

  it("reports db error when the database does not answer", async () => {
    // Port 1 on loopback refuses connections: a real driver failure, not a stub.
    const unreachable = await createDatabase({
      driver: "pg",
      url: "postgres://postgres@127.0.0.1:1/none",
      dataDir: tmpdir(),
    });
    const health = await checkHealth({
      ctx: { db: async () => unreachable, kv: () => kv },
      input: embedded,
    });
    await unreachable.close();
    expect(health).toMatchObject({ status: "error", db: "error", kv: "ok" });
    expect(health.reason).toBe("the database does not answer");
  });

  it("says how to fix a database that is not migrated, without naming where it is", async () => {
    const notMigrated = new DatabaseNotMigratedError("PostgreSQL at db.internal:5432/prod", [
      "0005_deferred_usage",
    ]);
    const health = await checkHealth({
      ctx: { db: () => Promise.reject(notMigrated), kv: () => kv },
      input: embedded,
    });
    expect(health).toMatchObject({ status: "error", db: "error" });
    expect(health.reason).toBe(
      "the database is not migrated (missing 0005_deferred_usage): run `npm run db:migrate`",
    );
  });

  it("reports the store degraded, not the service down, when KV is unreachable", async () => {
    const deadKv = createRedisKv("redis://127.0.0.1:1");
    const health = await checkHealth({
      ctx: { db: async () => t.db, kv: () => deadKv },
      input: embedded,
    });
    await deadKv.close();
    expect(health).toMatchObject({ status: "degraded", db: "ok", kv: "error" });
    expect(health.reason).toContain("the KV store does not answer");
  });

  it("reports an in-memory store next to a shared database as degraded, with the reason", async () => {
    const health = await checkHealth({
      ctx: { db: async () => t.db, kv: () => kv },
      input: { version: "x", sharedDatabase: true },
    });
    expect(health).toMatchObject({ status: "degraded", db: "ok", kv: "ok", providers: "ok" });
    expect(health.reason).toBe(
      "the KV store is in memory next to a shared database: each instance caches and rate-limits on its own",
    );
  });
});
