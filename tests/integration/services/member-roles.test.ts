/**
 * Who may change whom (security #14): admins manage members and admins, only owners give or take
 * ownership, a workspace keeps an owner; and a member's tokens lose what the member loses, at once.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { auditLog, memberships, users } from "@/lib/db/schema";
import { type Actor, type Platform, SCOPES, type TenantContext } from "@/lib/pipeline/context";
import { changeMember } from "@/lib/services/members/change-member";
import { listMembers } from "@/lib/services/members/list-members";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { createToken } from "@/lib/services/tokens/create-token";
import { verifyToken } from "@/lib/services/tokens/verify-token";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";

const OWNER_ONLY = { code: "forbidden", message: expect.stringContaining("only an owner") };

describe.each(databaseTargets())("member roles and their tokens on $name", (target) => {
  let t: TestDatabase;
  let platform: Platform;
  let tenantId: string;
  const ids = { owner: "", admin: "", member: "" };
  const as = (userId: string) => tenantCtx(platform, tenantId, SCOPES, { kind: "user", userId });
  let owner: TenantContext;
  let admin: TenantContext;

  const roles = async () =>
    Object.fromEntries((await listMembers({ ctx: owner })).map((m) => [m.email?.split("@")[0], m.role]));
  const works = async (token: string) => (await verifyToken({ ctx: platform, input: { token } })) !== null;

  beforeAll(async () => {
    t = await target.create();
    platform = testPlatform(t.db);
    const created = await t.db.withSystem((tx) =>
      tx
        .insert(users)
        .values(["owner", "admin", "member"].map((name) => ({ email: `${name}@roles.test`, name })))
        .returning({ id: users.id, name: users.name }),
    );
    for (const user of created) ids[user.name as keyof typeof ids] = user.id;
    tenantId = (
      await createTenant({ ctx: systemCtx(platform), input: { name: "roles", ownerUserId: ids.owner } })
    ).id;
    owner = as(ids.owner);
    admin = as(ids.admin);
  });
  afterAll(async () => t?.cleanup());

  // Each case starts from one owner, one admin and one member.
  beforeEach(async () => {
    await t.db.withSystem(async (tx) => {
      await tx.delete(memberships).where(eq(memberships.tenantId, tenantId));
      await tx
        .insert(memberships)
        .values(
          (["owner", "admin", "member"] as const).map((role) => ({ tenantId, userId: ids[role], role })),
        );
    });
  });

  it("refuses an admin every ownership change: making themselves owner, demoting or removing the owner", async () => {
    const attempts: Array<[string, "owner" | "admin" | "member" | null]> = [
      [ids.admin, "owner"],
      [ids.member, "owner"],
      [ids.owner, "admin"],
      [ids.owner, "member"],
      [ids.owner, null],
    ];
    for (const [userId, role] of attempts) {
      await expect(changeMember({ ctx: admin, input: { userId, role } })).rejects.toMatchObject(OWNER_ONLY);
    }
    // A token with the admin scope is no owner either, whoever created it.
    const token: Actor = {
      kind: "token",
      tokenId: crypto.randomUUID(),
      tokenName: "admin-token",
      userId: ids.admin,
    };
    await expect(
      changeMember({
        ctx: tenantCtx(platform, tenantId, SCOPES, token),
        input: { userId: ids.admin, role: "owner" },
      }),
    ).rejects.toMatchObject(OWNER_ONLY);
    expect(await roles()).toEqual({ owner: "owner", admin: "admin", member: "member" });
  });

  it("lets an admin manage members and admins", async () => {
    await changeMember({ ctx: admin, input: { userId: ids.member, role: "admin" } });
    await changeMember({ ctx: admin, input: { userId: ids.member, role: "member" } });
    await changeMember({ ctx: admin, input: { userId: ids.member, role: null } });
    expect(await roles()).toEqual({ owner: "owner", admin: "admin" });
  });

  it("lets an owner give and take ownership, and keeps the last owner", async () => {
    await changeMember({ ctx: owner, input: { userId: ids.admin, role: "owner" } });
    // The former admin, an owner now, may demote the one who promoted them.
    await changeMember({ ctx: admin, input: { userId: ids.owner, role: "member" } });
    expect(await roles()).toEqual({ owner: "member", admin: "owner", member: "member" });
    await expect(
      changeMember({ ctx: admin, input: { userId: ids.admin, role: null } }),
    ).rejects.toMatchObject({
      code: "conflict",
    });
  });

  it("revokes the tokens a removed member created, in the same change, with audit rows", async () => {
    const mine = await createToken({ ctx: admin, input: { name: "admin-search" } });
    const mineAdmin = await createToken({ ctx: admin, input: { name: "admin-admin", scopes: ["admin"] } });
    const others = await createToken({ ctx: owner, input: { name: "owner-search" } });
    // Verified once, so KV holds a valid verdict that only a tombstone replaces.
    for (const token of [mine, mineAdmin, others]) expect(await works(token.token)).toBe(true);

    const removed = await changeMember({ ctx: owner, input: { userId: ids.admin, role: null } });

    expect(removed.revokedTokens).toBe(2);
    expect(await works(mine.token)).toBe(false);
    expect(await works(mineAdmin.token)).toBe(false);
    expect(await works(others.token)).toBe(true);
    const audit = await t.db.withTenant(tenantId, (tx) =>
      tx
        .select({ targetId: auditLog.targetId, details: auditLog.details })
        .from(auditLog)
        .where(and(eq(auditLog.action, "token.revoke"), eq(auditLog.actorUserId, ids.owner))),
    );
    expect(audit.map((row) => row.targetId).sort()).toEqual([mine.id, mineAdmin.id].sort());
    expect(audit[0]?.details).toMatchObject({ reason: "member.remove", creator: ids.admin });
  });

  it("revokes, with the member, the tokens their tokens minted", async () => {
    const minter = await createToken({ ctx: admin, input: { name: "minter", scopes: ["admin"] } });
    const viaToken = tenantCtx(platform, tenantId, ["admin"], {
      kind: "token",
      tokenId: minter.id,
      tokenName: minter.name,
      userId: ids.admin,
    });
    const minted = await createToken({ ctx: viaToken, input: { name: "minted" } });
    expect(await works(minted.token)).toBe(true);

    await changeMember({ ctx: owner, input: { userId: ids.admin, role: null } });

    expect(await works(minter.token)).toBe(false);
    expect(await works(minted.token)).toBe(false);
  });

  it("revokes the admin-scoped tokens of an admin made a member, and keeps the others", async () => {
    const search = await createToken({ ctx: admin, input: { name: "still-member-scopes" } });
    const administer = await createToken({
      ctx: admin,
      input: { name: "administers", scopes: ["search", "admin"] },
    });
    expect(await works(administer.token)).toBe(true);

    const demoted = await changeMember({ ctx: owner, input: { userId: ids.admin, role: "member" } });

    expect(demoted.revokedTokens).toBe(1);
    expect(await works(administer.token)).toBe(false);
    expect(await works(search.token)).toBe(true);
  });
});
