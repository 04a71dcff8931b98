import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tenants } from "@/lib/db/schema";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { type NeonWsBridge, startNeonWsBridge } from "@/tests/support/neon-ws-bridge";

const postgres = databaseTargets().find((target) => target.name === "postgres");

// Neon's driver speaks Postgres over WebSockets; it needs a real Postgres server behind the bridge,
// so it runs where DATABASE_URL is set (always on CI).
describe.runIf(postgres)("Neon serverless driver through a WebSocket bridge", () => {
  let bridge: NeonWsBridge;
  let t: TestDatabase;

  beforeAll(async () => {
    bridge = await startNeonWsBridge();
    t = await (postgres as NonNullable<typeof postgres>).create({
      driver: "neon",
      neonWsProxy: bridge.proxy,
    });
  });
  afterAll(async () => {
    await t?.cleanup();
    await bridge?.close();
  });

  it("migrated the database and serves queries over WebSockets", async () => {
    await t.db.ping();
    expect(bridge.connections()).toBeGreaterThan(0);
  });

  it("runs tenant-scoped transactions with RLS", async () => {
    const [a, b] = await t.db.withSystem((tx) =>
      tx
        .insert(tenants)
        .values([{ name: "neon-a" }, { name: "neon-b" }])
        .returning({ id: tenants.id }),
    );
    const seen = await t.db.withTenant(a?.id ?? "", (tx) => tx.select({ id: tenants.id }).from(tenants));
    expect(seen.map((row) => row.id)).toEqual([a?.id]);
    expect(b?.id).toBeDefined();
  });

  it("rolls back a failed transaction", async () => {
    const attempt = t.db.withSystem(async (tx) => {
      await tx.insert(tenants).values({ name: "never" });
      throw new Error("abort");
    });
    await expect(attempt).rejects.toThrow("abort");
    const names = await t.db.withSystem((tx) => tx.select({ name: tenants.name }).from(tenants));
    expect(names.map((n) => n.name)).not.toContain("never");
  });
});
