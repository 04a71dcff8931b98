import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "@/lib/db/schema";
import { DEFAULT_TOKEN_SCOPES, type Platform, type TenantContext } from "@/lib/pipeline/context";
import { deleteBudget } from "@/lib/services/budgets/delete-budget";
import { setBudget } from "@/lib/services/budgets/set-budget";
import { listKeys } from "@/lib/services/keys/list-keys";
import { setKey } from "@/lib/services/keys/set-key";
import { acceptInvitation } from "@/lib/services/members/accept-invitation";
import { changeMember } from "@/lib/services/members/change-member";
import { inviteMember } from "@/lib/services/members/invite-member";
import { listMembers } from "@/lib/services/members/list-members";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { createToken } from "@/lib/services/tokens/create-token";
import { listTokens } from "@/lib/services/tokens/list-tokens";
import { revokeToken } from "@/lib/services/tokens/revoke-token";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";

describe.each(databaseTargets())("members and cross-tenant isolation on $name", (target) => {
  let t: TestDatabase;
  let platform: Platform;
  let owner: { id: string };
  let guest: { id: string };
  let a: TenantContext;
  let b: TenantContext;

  beforeAll(async () => {
    t = await target.create();
    platform = testPlatform(t.db);
    [owner, guest] = (await t.db.withSystem((tx) =>
      tx
        .insert(users)
        .values([
          { email: "owner@a.test", name: "Owner" },
          { email: "guest@b.test", name: "Guest" },
        ])
        .returning({ id: users.id }),
    )) as [{ id: string }, { id: string }];
    const ta = await createTenant({ ctx: systemCtx(platform), input: { name: "A", ownerUserId: owner.id } });
    const tb = await createTenant({ ctx: systemCtx(platform), input: { name: "B" } });
    a = tenantCtx(platform, ta.id, undefined, { kind: "user", userId: owner.id });
    b = tenantCtx(platform, tb.id);
  });
  afterAll(async () => t?.cleanup());

  it("invites by email, joins with the link once, and only as the invited address", async () => {
    const invitation = await inviteMember({ ctx: a, input: { email: "Guest@B.test", role: "admin" } });
    expect(invitation.path).toBe(`/invite/${invitation.secret}`);
    const [stranger] = await t.db.withSystem((tx) =>
      tx.insert(users).values({ email: "x@y.test" }).returning({ id: users.id }),
    );
    await expect(
      acceptInvitation({
        ctx: systemCtx(platform),
        input: { secret: invitation.secret, userId: stranger?.id ?? "" },
      }),
    ).rejects.toMatchObject({ code: "not_found" });
    const joined = await acceptInvitation({
      ctx: systemCtx(platform),
      input: { secret: invitation.secret, userId: guest.id },
    });
    expect(joined).toEqual({ tenantId: a.tenantId, role: "admin", alreadyMember: false });
    await expect(
      acceptInvitation({ ctx: systemCtx(platform), input: { secret: invitation.secret, userId: guest.id } }),
    ).rejects.toMatchObject({ code: "not_found" });
    const members = await listMembers({ ctx: a });
    expect(members.map((m) => [m.email, m.role])).toEqual([
      ["owner@a.test", "owner"],
      ["guest@b.test", "admin"],
    ]);
  });

  it("refuses an expired invitation and invitations by members", async () => {
    const invitation = await inviteMember({ ctx: a, input: { email: "late@a.test" } });
    const later = { ...systemCtx(platform), now: () => new Date(Date.now() + 8 * 86_400_000) };
    const [late] = await t.db.withSystem((tx) =>
      tx.insert(users).values({ email: "late@a.test" }).returning({ id: users.id }),
    );
    await expect(
      acceptInvitation({ ctx: later, input: { secret: invitation.secret, userId: late?.id ?? "" } }),
    ).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(
      inviteMember({ ctx: { ...a, scopes: DEFAULT_TOKEN_SCOPES }, input: { email: "m@a.test" } }),
    ).rejects.toMatchObject({
      code: "forbidden",
    });
  });

  it("keeps at least one owner, and changes or removes other members", async () => {
    await expect(changeMember({ ctx: a, input: { userId: owner.id, role: "member" } })).rejects.toMatchObject(
      { code: "conflict" },
    );
    await expect(changeMember({ ctx: a, input: { userId: owner.id, role: null } })).rejects.toMatchObject({
      code: "conflict",
    });
    await changeMember({ ctx: a, input: { userId: guest.id, role: "owner" } });
    await changeMember({ ctx: a, input: { userId: owner.id, role: "member" } }); // another owner exists now
    await changeMember({ ctx: a, input: { userId: owner.id, role: null } });
    expect((await listMembers({ ctx: a })).map((m) => [m.email, m.role])).toEqual([
      ["guest@b.test", "owner"],
    ]);
  });

  it("answers not_found to tenant A for every id of tenant B, and changes nothing of B", async () => {
    const bToken = await createToken({ ctx: b, input: { name: "b-token" } });
    const bBudget = await setBudget({
      ctx: b,
      input: { provider: "brave", metric: "requests", period: "day", limit: 5 },
    });
    await setKey({ ctx: b, input: { provider: "exa", key: "exa-tenant-b-key" } });

    await expect(revokeToken({ ctx: a, input: { id: bToken.id } })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(deleteBudget({ ctx: a, input: { id: bBudget.id } })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(changeMember({ ctx: b, input: { userId: owner.id, role: "admin" } })).rejects.toMatchObject({
      code: "not_found",
    });

    expect((await listTokens({ ctx: a })).map((x) => x.id)).not.toContain(bToken.id);
    expect((await listKeys({ ctx: a })).map((k) => k.provider)).not.toContain("exa");
    expect((await listTokens({ ctx: b })).find((x) => x.id === bToken.id)?.revokedAt).toBeNull();
  });
});
