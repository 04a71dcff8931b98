import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase } from "@/lib/db/client";
import { apiTokens, providerKeys } from "@/lib/db/schema";
import { createMemoryKv } from "@/lib/kv/memory";
import { DEFAULT_TOKEN_SCOPES, type Platform, type TenantContext } from "@/lib/pipeline/context";
import { parseKeyring } from "@/lib/pipeline/keys/key-encryption";
import { resolveProviderKeys } from "@/lib/pipeline/providers/resolve-keys";
import { budgetStatus } from "@/lib/services/budgets/budget-status";
import { setBudget } from "@/lib/services/budgets/set-budget";
import { deleteKey } from "@/lib/services/keys/delete-key";
import { listKeys } from "@/lib/services/keys/list-keys";
import { rotateKeys } from "@/lib/services/keys/rotate-keys";
import { setKey } from "@/lib/services/keys/set-key";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { updateTenant } from "@/lib/services/tenants/update-tenant";
import { createToken } from "@/lib/services/tokens/create-token";
import { listTokens } from "@/lib/services/tokens/list-tokens";
import { revokeToken } from "@/lib/services/tokens/revoke-token";
import { recordTokenUse, verifyToken } from "@/lib/services/tokens/verify-token";
import { databaseTargets, type TestDatabase, withRawClient } from "@/tests/support/database";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";
import { twoTenants } from "@/tests/support/two-tenants";

const newKeyring = (version: number) => `${version}:${randomBytes(32).toString("base64")}`;

describe.each(databaseTargets())("provider keys and tokens on $name", (target) => {
  let t: TestDatabase;
  let platform: Platform;
  let a: TenantContext;
  let b: TenantContext;

  beforeAll(async () => {
    t = await target.create();
    platform = testPlatform(t.db);
    ({ a, b } = await twoTenants(platform));
  });
  afterAll(async () => t?.cleanup());

  const secrets = { tavily: "tvly-SECRET-a1b2c3d4e5f6", brave: "BSA-secret-0099887766" };

  it("stores keys encrypted, shows only the last 4, and leaves no plaintext in a dump", async () => {
    await setKey({ ctx: a, input: { provider: "tavily", key: secrets.tavily } });
    await setKey({ ctx: a, input: { provider: "brave", key: secrets.brave } });
    const token = await createToken({ ctx: a, input: { name: "dump-check" } });
    const listed = await listKeys({ ctx: a });
    expect(listed.map((k) => [k.provider, k.last4, k.status])).toEqual([
      ["brave", "7766", "unknown"],
      ["tavily", "e5f6", "unknown"],
    ]);
    expect(JSON.stringify(listed)).not.toContain("SECRET");

    const dump = await withRawClient(t.url, async (client) => {
      const tables = await client.query("select tablename from pg_tables where schemaname = 'public'");
      const parts: string[] = [];
      for (const { tablename } of tables.rows) {
        const rows = await client.query(`select * from "${tablename}"`);
        parts.push(JSON.stringify(rows.rows));
      }
      return parts.join("\n");
    });
    for (const secret of [secrets.tavily, secrets.brave, token.token, token.token.slice(4, 36)]) {
      expect(dump).not.toContain(secret);
    }
  });

  it("pre-fills the free tier as a budget with a tenant's first key, and keeps an admin's change", async () => {
    const status = await budgetStatus({ ctx: a });
    expect(status.budgets.map((x) => [x.provider, x.metric, x.period, x.limit])).toEqual([
      ["*", "usd", "month", 10], // the new workspace's spend cap
      // Free tiers of credit are budgets in dollars: Brave's $5 a month, Tavily's 1,000 credits at $0.008.
      ["brave", "usd", "month", 5],
      ["tavily", "usd", "month", 8],
    ]);
    await setBudget({
      ctx: a,
      input: { provider: "tavily", metric: "usd", period: "month", limit: 20 },
    });
    await setKey({ ctx: a, input: { provider: "tavily", key: secrets.tavily } }); // replacing the key keeps it
    expect((await budgetStatus({ ctx: a })).budgets.find((x) => x.provider === "tavily")?.limit).toBe(20);
  });

  it("resolves the tenant's key first, then the operator's, and nothing for others", async () => {
    const withOperator = { ...a, env: { TAVILY_API_KEY: "operator-tavily", EXA_API_KEY: "operator-exa" } };
    const keys = await resolveProviderKeys(withOperator, ["tavily", "exa", "kagi"]);
    expect(Object.fromEntries(keys)).toEqual({
      tavily: { apiKey: secrets.tavily, source: "tenant" },
      exa: { apiKey: "operator-exa", source: "operator" },
    });
    const other = await resolveProviderKeys(b, ["tavily"]);
    expect(other.size).toBe(0);
  });

  it("refuses a ciphertext moved to another row or tenant", async () => {
    await setKey({ ctx: b, input: { provider: "tavily", key: "tvly-tenant-b-key-0000" } });
    const rows = await t.db.withSystem((tx) =>
      tx.select().from(providerKeys).where(eq(providerKeys.provider, "tavily")),
    );
    const [rowA, rowB] = [
      rows.find((r) => r.tenantId === a.tenantId),
      rows.find((r) => r.tenantId === b.tenantId),
    ];
    if (!rowA || !rowB) throw new Error("rows missing");
    // Copy A's sealed key into B's row: B must not be able to use A's key.
    await t.db.withSystem((tx) =>
      tx
        .update(providerKeys)
        .set({ ciphertext: rowA.ciphertext, iv: rowA.iv, tag: rowA.tag, keyVersion: rowA.keyVersion })
        .where(eq(providerKeys.id, rowB.id)),
    );
    const resolved = await resolveProviderKeys(b, ["tavily"]);
    expect(resolved.get("tavily")).toBeUndefined();
  });

  it("re-encrypts every key under a new key-encryption key, after which the old one can go", async () => {
    const v1 = newKeyring(1);
    const v2 = newKeyring(2);
    const p1 = { ...platform, keyring: parseKeyring(v1) };
    const tenants = await Promise.all(
      Array.from({ length: 5 }, (_, i) => createTenant({ ctx: systemCtx(p1), input: { name: `rot-${i}` } })),
    );
    for (const [i, tenant] of tenants.entries()) {
      await setKey({ ctx: tenantCtx(p1, tenant.id), input: { provider: "exa", key: `exa-key-${i}-abcdef` } });
    }
    const p2 = { ...platform, keyring: parseKeyring(`${v2},${v1}`) };
    const result = await rotateKeys({ ctx: systemCtx(p2) });
    expect(result.keyVersion).toBe(2);
    expect(result.rotated).toBeGreaterThanOrEqual(5);
    const onlyV2 = { ...platform, keyring: parseKeyring(v2) };
    for (const [i, tenant] of tenants.entries()) {
      const ctx = tenantCtx(onlyV2, tenant.id);
      const keys = await resolveProviderKeys(ctx, ["exa"]);
      expect(keys.get("exa")?.apiKey).toBe(`exa-key-${i}-abcdef`);
    }
  });

  it("deletes a key, and answers not_found for a key that is not there", async () => {
    await deleteKey({ ctx: a, input: { provider: "brave" } });
    await expect(deleteKey({ ctx: a, input: { provider: "brave" } })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(
      setKey({ ctx: a, input: { provider: "duckduckgo", key: "whatever-123" } }),
    ).rejects.toMatchObject({
      code: "invalid_input",
    });
    await expect(
      setKey({
        ctx: { ...a, scopes: DEFAULT_TOKEN_SCOPES },
        input: { provider: "exa", key: "exa-key-xyz-123" },
      }),
    ).rejects.toMatchObject({ code: "forbidden" });
  });

  it("verifies a token, caches the answer, and refuses it at once after revocation", async () => {
    const created = await createToken({ ctx: a, input: { name: "agent", scopes: ["search", "mcp"] } });
    const verified = await verifyToken({ ctx: platform, input: { token: created.token } });
    expect(verified).toMatchObject({ tenantId: a.tenantId, name: "agent", scopes: ["search", "mcp"] });
    await revokeToken({ ctx: a, input: { id: created.id } });
    expect(await verifyToken({ ctx: platform, input: { token: created.token } })).toBeNull();
    await expect(revokeToken({ ctx: a, input: { id: created.id } })).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("refuses a token with a bad checksum without touching the database", async () => {
    const closed = await createDatabase({
      driver: "pg",
      url: "postgres://postgres@127.0.0.1:1/none",
      dataDir: tmpdir(),
    });
    const offline = { ...platform, db: closed, kv: createMemoryKv() };
    const good = await createToken({ ctx: a, input: { name: "checksum" } });
    const forged = `${good.token.slice(0, -1)}${good.token.endsWith("A") ? "B" : "A"}`;
    expect(await verifyToken({ ctx: offline, input: { token: forged } })).toBeNull();
    expect(await verifyToken({ ctx: offline, input: { token: "smx_short" } })).toBeNull();
    await expect(verifyToken({ ctx: offline, input: { token: good.token } })).rejects.toThrow();
    await closed.close();
  });

  it("refuses expired tokens and another tenant's token ids", async () => {
    let now = new Date();
    const clocked = { ...platform, now: () => now };
    const created = await createToken({
      ctx: { ...a, now: () => now },
      input: { name: "short", expiresAt: new Date(now.getTime() + 60_000).toISOString() },
    });
    expect(await verifyToken({ ctx: clocked, input: { token: created.token } })).not.toBeNull();
    now = new Date(now.getTime() + 61_000);
    expect(await verifyToken({ ctx: clocked, input: { token: created.token } })).toBeNull();
    await expect(revokeToken({ ctx: b, input: { id: created.id } })).rejects.toMatchObject({
      code: "not_found",
    });
    expect((await listTokens({ ctx: b })).map((x) => x.id)).not.toContain(created.id);
  });

  it("carries the tenant's rate-limit override in the verified token, and validates settings", async () => {
    await updateTenant({ ctx: a, input: { rateLimitRpm: 7, traceRetentionDays: 14 } });
    const created = await createToken({ ctx: a, input: { name: "limited" } });
    const verified = await verifyToken({
      ctx: { ...platform, kv: createMemoryKv() },
      input: { token: created.token },
    });
    expect(verified?.rateLimitRpm).toBe(7);
    await expect(updateTenant({ ctx: a, input: {} })).rejects.toMatchObject({ code: "invalid_input" });
    await expect(updateTenant({ ctx: a, input: { rateLimitRpm: 0 } })).rejects.toMatchObject({
      code: "invalid_input",
    });
    await updateTenant({ ctx: a, input: { rateLimitRpm: null } });
  });

  it("records last use off the hot path, at most once a minute", async () => {
    const created = await createToken({ ctx: a, input: { name: "used" } });
    const fresh = { ...platform, kv: createMemoryKv() };
    for (let i = 0; i < 5; i++) recordTokenUse(fresh, created.id);
    let lastUsed: Date | null = null;
    for (let i = 0; i < 50 && !lastUsed; i++) {
      await new Promise((r) => setTimeout(r, 20));
      [{ lastUsedAt: lastUsed } = { lastUsedAt: null }] = await t.db.withTenant(a.tenantId, (tx) =>
        tx.select({ lastUsedAt: apiTokens.lastUsedAt }).from(apiTokens).where(eq(apiTokens.id, created.id)),
      );
    }
    expect(lastUsed).toBeInstanceOf(Date);
    expect(await fresh.kv.ttl(`smx:token-used:${created.id}`)).toBeGreaterThan(0);
  });
});
