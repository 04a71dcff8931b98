import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiTokens, auditLog, memberships, tenants, users } from "@/lib/db/schema";
import {
  DEFAULT_TOKEN_SCOPES,
  type Platform,
  SCOPES,
  type SystemContext,
  type TenantContext,
} from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { drizzleAuthAdapter } from "@/lib/services/accounts/auth-adapter";
import { ensurePersonalTenant } from "@/lib/services/accounts/ensure-personal-tenant";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { getTenant } from "@/lib/services/tenants/get-tenant";
import { createToken } from "@/lib/services/tokens/create-token";
import { hashToken, hasValidChecksum } from "@/lib/services/tokens/token-format";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { tenantCtx as makeTenantCtx, systemCtx, testPlatform } from "@/tests/support/platform";

describe.each(databaseTargets())("tenancy services on $name", (target) => {
  let t: TestDatabase;
  let system: SystemContext;
  let platform: Platform;
  const tenantCtx = (tenantId: string, scopes: TenantContext["scopes"] = SCOPES) =>
    makeTenantCtx(platform, tenantId, scopes);

  beforeAll(async () => {
    t = await target.create();
    platform = testPlatform(t.db);
    system = systemCtx(platform);
  });
  afterAll(async () => t?.cleanup());

  it("creates a tenant with its audit row, and its default spend cap with its own", async () => {
    const tenant = await createTenant({ ctx: system, input: { name: "  Acme  " } });
    expect(tenant.name).toBe("Acme");
    const audit = await t.db.withTenant(tenant.id, (tx) => tx.select().from(auditLog));
    expect(audit).toHaveLength(2);
    expect(audit).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: "tenant.create", targetType: "tenant", targetId: tenant.id }),
        expect.objectContaining({ action: "budget.default", targetType: "budget" }),
      ]),
    );
  });

  it("refuses an empty tenant name with invalid_input", async () => {
    await expect(createTenant({ ctx: system, input: { name: " " } })).rejects.toMatchObject({
      code: "invalid_input",
    });
  });

  it("creates a token shown once, stored only as its hash, audited without the secret", async () => {
    const tenant = await createTenant({ ctx: system, input: { name: "tokens" } });
    const created = await createToken({ ctx: tenantCtx(tenant.id), input: { name: "agent" } });
    expect(hasValidChecksum(created.token)).toBe(true);
    expect(created.scopes).toEqual(DEFAULT_TOKEN_SCOPES);

    const [row] = await t.db.withTenant(tenant.id, (tx) => tx.select().from(apiTokens));
    expect(row?.tokenHash).toBe(hashToken(created.token));
    expect(JSON.stringify(row)).not.toContain(created.token.slice(4, 20));

    const audit = await t.db.withTenant(tenant.id, (tx) =>
      tx.select().from(auditLog).where(eq(auditLog.action, "token.create")),
    );
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit)).not.toContain(created.token.slice(4, 20));
    expect(audit[0]?.details).toMatchObject({ name: "agent", last4: created.token.slice(-4) });
  });

  it("needs the admin scope to create a token", async () => {
    const tenant = await createTenant({ ctx: system, input: { name: "members" } });
    const attempt = createToken({ ctx: tenantCtx(tenant.id, DEFAULT_TOKEN_SCOPES), input: { name: "x" } });
    await expect(attempt).rejects.toMatchObject({ code: "forbidden" });
    const rows = await t.db.withTenant(tenant.id, (tx) => tx.select().from(apiTokens));
    expect(rows).toHaveLength(0);
  });

  it("answers not_found for a token on a tenant that does not exist, and invalid_input for past expiry", async () => {
    const missing = createToken({
      ctx: tenantCtx("00000000-0000-4000-8000-000000000000"),
      input: { name: "x" },
    });
    await expect(missing).rejects.toBeInstanceOf(ServiceError);
    await expect(missing).rejects.toMatchObject({ code: "not_found" });
    const tenant = await createTenant({ ctx: system, input: { name: "expiry" } });
    const past = createToken({ ctx: tenantCtx(tenant.id), input: { name: "x", expiresAt: "2000-01-01" } });
    await expect(past).rejects.toMatchObject({ code: "invalid_input" });
  });

  it("creates exactly one personal tenant even when first sign-ins race", async () => {
    const adapter = drizzleAuthAdapter(async () => t.db);
    const user = await adapter.createUser?.({ email: "race@example.com", name: "Race", emailVerified: null });
    const userId = (user as { id: string }).id;
    const results = await Promise.all(
      Array.from({ length: 8 }, () => ensurePersonalTenant({ ctx: system, input: { userId } })),
    );
    expect(new Set(results.map((r) => r.tenantId)).size).toBe(1);
    expect(results[0]?.role).toBe("owner");
    const owned = await t.db.withSystem((tx) =>
      tx.select().from(memberships).where(eq(memberships.userId, userId)),
    );
    expect(owned).toHaveLength(1);
    const tenant = await getTenant({ ctx: tenantCtx(results[0]?.tenantId ?? "") });
    expect(tenant.name).toBe("Race's workspace");
  });

  it("links OAuth accounts and finds the user by account and by email", async () => {
    const adapter = drizzleAuthAdapter(async () => t.db);
    const user = (await adapter.createUser?.({
      email: "gh@example.com",
      name: "GH",
      emailVerified: null,
    })) as {
      id: string;
    };
    await adapter.linkAccount?.({
      userId: user.id,
      type: "oauth",
      provider: "github",
      providerAccountId: "12345",
      access_token: "gho_secret",
      token_type: "bearer",
    });
    expect((await adapter.getUserByAccount?.({ provider: "github", providerAccountId: "12345" }))?.id).toBe(
      user.id,
    );
    expect((await adapter.getUserByEmail?.("gh@example.com"))?.id).toBe(user.id);
    expect(await adapter.getUserByAccount?.({ provider: "github", providerAccountId: "nope" })).toBeNull();
  });

  it("lets the app role read only users who are members of its tenant", async () => {
    const [a, b] = await Promise.all([
      createTenant({ ctx: system, input: { name: "team-a" } }),
      createTenant({ ctx: system, input: { name: "team-b" } }),
    ]);
    const [ua, ub] = await t.db.withSystem((tx) =>
      tx
        .insert(users)
        .values([{ email: "a@team.test" }, { email: "b@team.test" }])
        .returning({ id: users.id }),
    );
    await t.db.withSystem((tx) =>
      tx.insert(memberships).values([
        { tenantId: a.id, userId: ua?.id ?? "", role: "owner" },
        { tenantId: b.id, userId: ub?.id ?? "", role: "owner" },
      ]),
    );
    const visible = await t.db.withTenant(a.id, (tx) => tx.select({ email: users.email }).from(users));
    expect(visible.map((u) => u.email)).toEqual(["a@team.test"]);
    const foreignTenants = await t.db.withTenant(a.id, (tx) =>
      tx.select().from(tenants).where(eq(tenants.id, b.id)),
    );
    expect(foreignTenants).toHaveLength(0);
  });
});
