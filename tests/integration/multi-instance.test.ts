import { execFile } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Platform, TenantContext } from "@/lib/pipeline/context";
import { parseKeyring } from "@/lib/pipeline/keys/key-encryption";
import { setBudget } from "@/lib/services/budgets/set-budget";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { createToken } from "@/lib/services/tokens/create-token";
import { revokeToken } from "@/lib/services/tokens/revoke-token";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";
import { deleteAppKeys, testRedisKv, testRedisUrl } from "@/tests/support/test-redis";

const run = promisify(execFile);
const postgres = databaseTargets().find((target) => target.name === "postgres");
const secretKey = `1:${randomBytes(32).toString("base64")}`;

// Two app instances are two processes sharing one PostgreSQL and one Redis; that needs a real server.
describe.runIf(postgres)("two app instances sharing PostgreSQL and Redis", () => {
  let t: TestDatabase;
  let platform: Platform;
  let tenant: TenantContext;
  const rateKey = `multi-${randomUUID()}`;

  const instance = async (...args: string[]) => {
    const env = {
      ...process.env,
      DATABASE_URL: t.url,
      REDIS_URL: testRedisUrl(),
      SEARCHMUX_SECRET_KEY: secretKey,
    };
    const { stdout } = await run("node_modules/.bin/tsx", ["tests/support/instance-worker.ts", ...args], {
      env,
    });
    return stdout.trim();
  };

  beforeAll(async () => {
    t = await (postgres as NonNullable<typeof postgres>).create();
    platform = testPlatform(t.db, {
      kv: testRedisKv(),
      keyring: parseKeyring(secretKey),
    });
    tenant = tenantCtx(
      platform,
      (await createTenant({ ctx: systemCtx(platform), input: { name: "multi" } })).id,
    );
  });
  afterAll(async () => {
    await platform?.kv.close();
    if (t) await deleteAppKeys(t.db, [rateKey]);
    await t?.cleanup();
  });

  it("holds a budget across both instances", async () => {
    await setBudget({
      ctx: tenant,
      input: { provider: "exa", metric: "requests", period: "day", limit: 100 },
    });
    const admitted = await Promise.all([
      instance("admit", tenant.tenantId, "exa", "300"),
      instance("admit", tenant.tenantId, "exa", "300"),
    ]);
    expect(admitted.map(Number).reduce((a, b) => a + b, 0)).toBe(100);
  }, 60_000);

  it("holds a rate limit across both instances", async () => {
    const now = String(Date.now());
    const allowed = await Promise.all([
      instance("ratelimit", rateKey, "20", "30", now),
      instance("ratelimit", rateKey, "20", "30", now),
    ]);
    expect(allowed.map(Number).reduce((a, b) => a + b, 0)).toBe(20);
  }, 60_000);

  it("refuses on one instance a token revoked on the other, at once", async () => {
    const created = await createToken({ ctx: tenant, input: { name: "shared" } });
    expect(await instance("verify", created.token)).toBe(tenant.tenantId); // now cached in Redis
    await revokeToken({ ctx: tenant, input: { id: created.id } });
    expect(await instance("verify", created.token)).toBe("refused");
  }, 60_000);
});
