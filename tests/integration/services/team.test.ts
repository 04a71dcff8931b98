/**
 * A team of one owner, one admin and two members (#16): calls are attributed to the member who made them
 * (signed in, or through a token they created), members read their own traces and manage their own
 * tokens within their role, and admins list and revoke pending invitations — which also go when the
 * admin who sent them is removed or made a member.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { auditLog, memberships, users } from "@/lib/db/schema";
import {
  DEFAULT_TOKEN_SCOPES,
  type Platform,
  SCOPES,
  type Scope,
  type TenantContext,
} from "@/lib/pipeline/context";
import { acceptInvitation } from "@/lib/services/members/accept-invitation";
import { changeMember } from "@/lib/services/members/change-member";
import { inviteMember } from "@/lib/services/members/invite-member";
import { listInvitations } from "@/lib/services/members/list-invitations";
import { revokeInvitation } from "@/lib/services/members/revoke-invitation";
import { webSearch } from "@/lib/services/search/web-search";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { createToken } from "@/lib/services/tokens/create-token";
import { listTokens } from "@/lib/services/tokens/list-tokens";
import { revokeToken } from "@/lib/services/tokens/revoke-token";
import { getTrace } from "@/lib/services/traces/get-trace";
import { listTraces } from "@/lib/services/traces/list-traces";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";

const NAMES = ["owner", "admin", "mia", "max"] as const;
type Name = (typeof NAMES)[number];

describe.each(databaseTargets())("a team's traces, tokens and invitations on $name", (target) => {
  let t: TestDatabase;
  let fake: FakeProviders;
  let platform: Platform;
  let tenantId: string;
  const ids = {} as Record<Name, string>;
  /** A member signed in to the dashboard: the scopes their role gives them. */
  const as = (name: Name) =>
    tenantCtx(
      platform,
      tenantId,
      name === "owner" || name === "admin" ? SCOPES : DEFAULT_TOKEN_SCOPES,
      { kind: "user", userId: ids[name] },
      "playground",
    );
  /** A call through a token: the actor withToken builds from the verified token. */
  const through = (token: { id: string; name: string; scopes: Scope[] }, creator: Name): TenantContext =>
    tenantCtx(
      platform,
      tenantId,
      token.scopes,
      { kind: "token", tokenId: token.id, tokenName: token.name, userId: ids[creator] },
      "mcp",
    );
  const search = async (ctx: TenantContext, query: string) => {
    const result = await webSearch({ ctx, input: { query, providers: ["duckduckgo"] } });
    await platform.traces.flush();
    return result.trace_id;
  };

  beforeAll(async () => {
    t = await target.create();
    fake = await startFakeProviders();
    platform = testPlatform(t.db, { env: { DUCKDUCKGO_BASE_URL: fake.baseUrlFor("duckduckgo") } });
    const created = await t.db.withSystem((tx) =>
      tx
        .insert(users)
        .values(NAMES.map((name) => ({ email: `${name}@team.test`, name: name === "max" ? null : name })))
        .returning({ id: users.id, email: users.email }),
    );
    for (const user of created) ids[user.email?.split("@")[0] as Name] = user.id;
    tenantId = (
      await createTenant({ ctx: systemCtx(platform), input: { name: "team", ownerUserId: ids.owner } })
    ).id;
  });
  afterAll(async () => {
    await fake?.close();
    await t?.cleanup();
  });
  beforeEach(async () => {
    await t.db.withSystem(async (tx) => {
      await tx.delete(memberships).where(eq(memberships.tenantId, tenantId));
      await tx.insert(memberships).values([
        { tenantId, userId: ids.owner, role: "owner" },
        { tenantId, userId: ids.admin, role: "admin" },
        { tenantId, userId: ids.mia, role: "member" },
        { tenantId, userId: ids.max, role: "member" },
      ]);
    });
  });

  describe("traces", () => {
    it("name the member behind each call, signed in or through their token", async () => {
      const signedIn = await search(as("mia"), "mia in the playground");
      const miaToken = await createToken({ ctx: as("mia"), input: { name: "mia-agent" } });
      const viaToken = await search(through(miaToken, "mia"), "mia's agent");

      expect(await getTrace({ ctx: as("admin"), input: { id: signedIn } })).toMatchObject({
        surface: "playground",
        user_id: ids.mia,
        user_name: "mia",
      });
      expect(await getTrace({ ctx: as("admin"), input: { id: viaToken } })).toMatchObject({
        surface: "mcp",
        token_name: "mia-agent",
        user_id: ids.mia,
        user_name: "mia",
      });
      // A member without a name goes by their email.
      const maxCall = await search(as("max"), "max searches");
      expect((await getTrace({ ctx: as("owner"), input: { id: maxCall } })).user_name).toBe("max@team.test");
    });

    it("are visible to a member for their own calls only; admins see all and can narrow to theirs", async () => {
      const mine = [await search(as("mia"), "mia one"), await search(as("mia"), "mia two")];
      const theirs = await search(as("max"), "max one");
      const admins = await search(as("admin"), "admin one");

      const seenByMia = (await listTraces({ ctx: as("mia"), input: { limit: 100 } })).traces;
      expect(seenByMia.map((trace) => trace.user_id)).toEqual(seenByMia.map(() => ids.mia));
      expect(seenByMia.map((trace) => trace.id)).toEqual(expect.arrayContaining(mine));
      expect(seenByMia.map((trace) => trace.id)).not.toContain(theirs);
      expect(await getTrace({ ctx: as("mia"), input: { id: mine[0] ?? "" } })).toMatchObject({
        user_id: ids.mia,
      });
      await expect(getTrace({ ctx: as("mia"), input: { id: theirs } })).rejects.toMatchObject({
        code: "not_found",
      });

      const all = (await listTraces({ ctx: as("admin"), input: { limit: 100 } })).traces.map(
        (trace) => trace.id,
      );
      expect(all).toEqual(expect.arrayContaining([...mine, theirs, admins]));
      const adminsOwn = (await listTraces({ ctx: as("admin"), input: { limit: 100, mine: "true" } })).traces;
      expect(adminsOwn.map((trace) => trace.id)).toEqual([admins]);
      expect(adminsOwn[0]).toMatchObject({ user_id: ids.admin, user_name: "admin" });
    });
  });

  describe("tokens", () => {
    it("are created by members within their role, and seen and revoked only by them and admins", async () => {
      const miaToken = await createToken({ ctx: as("mia"), input: { name: "mia-laptop" } });
      expect(miaToken.scopes).toEqual(DEFAULT_TOKEN_SCOPES);
      await expect(
        createToken({ ctx: as("mia"), input: { name: "mia-admin", scopes: ["search", "admin"] } }),
      ).rejects.toMatchObject({ code: "forbidden", message: expect.stringContaining("admin") });
      const maxToken = await createToken({
        ctx: as("max"),
        input: { name: "max-laptop", scopes: ["search"] },
      });

      const miasList = await listTokens({ ctx: as("mia") });
      expect(miasList.map((token) => token.id)).toContain(miaToken.id);
      expect(miasList.every((token) => token.createdBy === ids.mia)).toBe(true);
      await expect(revokeToken({ ctx: as("mia"), input: { id: maxToken.id } })).rejects.toMatchObject({
        code: "not_found",
      });

      const adminsList = await listTokens({ ctx: as("admin") });
      expect(adminsList.find((token) => token.id === maxToken.id)).toMatchObject({
        createdBy: ids.max,
        createdByName: "max@team.test",
      });
      await revokeToken({ ctx: as("mia"), input: { id: miaToken.id } });
      await revokeToken({ ctx: as("admin"), input: { id: maxToken.id } });

      // A token without the admin scope manages no tokens, whoever created it.
      const viaToken = through(miaToken, "mia");
      await expect(listTokens({ ctx: viaToken })).rejects.toMatchObject({ code: "forbidden" });
      await expect(createToken({ ctx: viaToken, input: { name: "minted" } })).rejects.toMatchObject({
        code: "forbidden",
      });
    });
  });

  describe("invitations", () => {
    const invite = (by: Name, email: string) => inviteMember({ ctx: as(by), input: { email } });
    /** The invited address signs up and opens the link. */
    const accept = async (email: string, secret: string) => {
      const [user] = await t.db.withSystem((tx) =>
        tx.insert(users).values({ email }).returning({ id: users.id }),
      );
      return acceptInvitation({ ctx: systemCtx(platform), input: { secret, userId: user?.id ?? "" } });
    };
    const emailsPending = async () => (await listInvitations({ ctx: as("owner") })).map((i) => i.email);

    it("are listed while pending, revoked with an audit row, and a revoked link no longer works", async () => {
      const first = await invite("admin", "first@team.test");
      await invite("owner", "second@team.test");
      expect(await listInvitations({ ctx: as("owner") })).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            id: first.id,
            email: "first@team.test",
            role: "member",
            invitedBy: "admin",
          }),
          expect.objectContaining({ email: "second@team.test", invitedBy: "owner" }),
        ]),
      );
      await expect(listInvitations({ ctx: as("mia") })).rejects.toMatchObject({ code: "forbidden" });
      await expect(revokeInvitation({ ctx: as("mia"), input: { id: first.id } })).rejects.toMatchObject({
        code: "forbidden",
      });

      await revokeInvitation({ ctx: as("admin"), input: { id: first.id } });
      expect(await emailsPending()).not.toContain("first@team.test");
      await expect(revokeInvitation({ ctx: as("admin"), input: { id: first.id } })).rejects.toMatchObject({
        code: "not_found",
      });
      const audit = await t.db.withTenant(tenantId, (tx) =>
        tx
          .select()
          .from(auditLog)
          .where(and(eq(auditLog.action, "invitation.revoke"), eq(auditLog.targetId, first.id))),
      );
      expect(audit).toHaveLength(1);

      await expect(accept("first@team.test", first.secret)).rejects.toMatchObject({ code: "not_found" });
    });

    it("sent by an admin go when the admin is removed or made a member; others' stay", async () => {
      const byRemoved = await invite("admin", "removed-admin@team.test");
      const byOwner = await invite("owner", "still-welcome@team.test");
      await changeMember({ ctx: as("owner"), input: { userId: ids.admin, role: null } });
      expect(await emailsPending()).not.toContain("removed-admin@team.test");
      expect(await emailsPending()).toContain("still-welcome@team.test");

      await expect(accept("removed-admin@team.test", byRemoved.secret)).rejects.toMatchObject({
        code: "not_found",
      });

      await t.db.withSystem((tx) =>
        tx.insert(memberships).values({ tenantId, userId: ids.admin, role: "admin" }),
      );
      await invite("admin", "demoted-admin@team.test");
      await changeMember({ ctx: as("owner"), input: { userId: ids.admin, role: "member" } });
      expect(await emailsPending()).not.toContain("demoted-admin@team.test");
      // The owner's invitation still works.
      expect(await accept("still-welcome@team.test", byOwner.secret)).toEqual({
        tenantId,
        role: "member",
        alreadyMember: false,
      });
    });

    it("say the role a member holds after accepting: a member invited as admin becomes one, an owner stays owner", async () => {
      const acceptAs = (name: Name, secret: string) =>
        acceptInvitation({ ctx: systemCtx(platform), input: { secret, userId: ids[name] } });
      const promotion = await inviteMember({
        ctx: as("admin"),
        input: { email: "mia@team.test", role: "admin" },
      });
      expect(await acceptAs("mia", promotion.secret)).toEqual({
        tenantId,
        role: "admin",
        alreadyMember: true,
      });
      const [mia] = await t.db.withSystem((tx) =>
        tx
          .select({ role: memberships.role })
          .from(memberships)
          .where(and(eq(memberships.tenantId, tenantId), eq(memberships.userId, ids.mia))),
      );
      expect(mia?.role).toBe("admin");
      const demotion = await inviteMember({
        ctx: as("admin"),
        input: { email: "owner@team.test", role: "member" },
      });
      expect(await acceptAs("owner", demotion.secret)).toEqual({
        tenantId,
        role: "owner",
        alreadyMember: true,
      });
    });
  });
});
