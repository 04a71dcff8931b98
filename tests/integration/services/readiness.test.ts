/**
 * checkReadiness against real parts that fail in the ways an operator meets: a database or Redis that
 * accepts the connection and then never answers (a hung dependency must make the check answer "error",
 * not hang the probe), a database that is not migrated, and key-encryption keys that cannot read the
 * stored data. Each part's answer and the reason, which names no host or driver error.
 */
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import net from "node:net";
import { tmpdir } from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "@/lib/db/client";
import { DatabaseNotMigratedError } from "@/lib/db/migrations";
import { createMemoryKv } from "@/lib/kv/memory";
import { createRedisKv } from "@/lib/kv/redis";
import { keyringVerdict } from "@/lib/pipeline/keys/key-check";
import { parseKeyring } from "@/lib/pipeline/keys/key-encryption";
import { checkReadiness } from "@/lib/services/health/check-readiness";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";

/** A TCP server that takes every connection and never writes a byte; counts the connections. */
async function silentServer() {
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on("error", () => {});
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => connections,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const key = () => `1:${randomBytes(32).toString("base64")}`;

describe("checkReadiness", () => {
  let t: TestDatabase;
  const kv = createMemoryKv();
  const keyring = parseKeyring(key());
  beforeAll(async () => {
    t = await (databaseTargets()[0] as NonNullable<ReturnType<typeof databaseTargets>[0]>).create();
  });
  afterAll(async () => {
    await kv.close();
    await t?.cleanup();
  });

  it("is ready with a database that answers, a store that answers and keys that read the data", async () => {
    expect(
      await checkReadiness({ ctx: { db: async () => t.db, kv: () => kv, keyring: () => keyring } }),
    ).toEqual({ status: "ok", db: "ok", kv: "ok", secret_key: "ok" });
  });

  it("is not ready, and says the database does not answer, when it hangs after connecting", async () => {
    const hung = await silentServer();
    const db = await createDatabase({
      driver: "pg",
      url: `postgres://postgres@127.0.0.1:${hung.port}/none`,
      dataDir: tmpdir(),
    });
    try {
      const readiness = await checkReadiness({
        ctx: { db: async () => db, kv: () => kv, keyring: () => keyring },
      });
      expect(readiness).toEqual({
        status: "error",
        db: "error",
        kv: "ok",
        secret_key: "unknown",
        reason: "the database does not answer",
      });
      expect(hung.connections()).toBeGreaterThan(0);
    } finally {
      await hung.close();
      await db.close();
    }
  });

  it("is not ready, and says the KV store does not answer, when Redis hangs after connecting", async () => {
    const hung = await silentServer();
    const redis = createRedisKv(`redis://127.0.0.1:${hung.port}`);
    try {
      const readiness = await checkReadiness({
        ctx: { db: async () => t.db, kv: () => redis, keyring: () => keyring },
      });
      expect(readiness).toEqual({
        status: "error",
        db: "ok",
        kv: "error",
        secret_key: "ok",
        reason: "the KV store does not answer",
      });
      expect(hung.connections()).toBeGreaterThan(0);
    } finally {
      await redis.close();
      await hung.close();
    }
  });

  it("says how to fix a database that is not migrated, without naming where it is", async () => {
    const notMigrated = new DatabaseNotMigratedError("PostgreSQL at db.internal:5432/prod", [
      "0013_key_checks",
    ]);
    const readiness = await checkReadiness({
      ctx: { db: () => Promise.reject(notMigrated), kv: () => kv, keyring: () => keyring },
    });
    expect(readiness).toMatchObject({ status: "error", db: "error", secret_key: "unknown" });
    expect(readiness.reason).toBe(
      "the database is not migrated (missing 0013_key_checks): run `npm run db:migrate`",
    );
  });

  it("is not ready when SEARCHMUX_SECRET_KEY cannot read what another key stored, with the reason", async () => {
    const other = parseKeyring(key());
    expect(await keyringVerdict(t.db, keyring)).toEqual({ ok: true });
    const readiness = await checkReadiness({
      ctx: { db: async () => t.db, kv: () => kv, keyring: () => other },
    });
    expect(readiness).toMatchObject({ status: "error", db: "ok", kv: "ok", secret_key: "error" });
    expect(readiness.reason).toMatch(
      /^SEARCHMUX_SECRET_KEY's key of version 1 is not the key that data stored under version 1 was encrypted with/,
    );
  });
});
