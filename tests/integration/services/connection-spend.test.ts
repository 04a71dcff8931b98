/**
 * This month's spend per connection (the Connect page's column) on each database: tokens and connected apps
 * counted from the traces the trace sink writes, a connected app's calls still counted after its access
 * token is deleted, last month's left out, a member shown their own connections only, and nothing of
 * another workspace's ever counted or shown.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiTokens, memberships, users } from "@/lib/db/schema";
import { usdToMicros } from "@/lib/pipeline/budgets/units";
import type { TraceRecord } from "@/lib/pipeline/capabilities";
import type { Actor, Platform, TenantContext } from "@/lib/pipeline/context";
import { scopesOfRole } from "@/lib/services/accounts/role-scopes";
import { approveAuthorization } from "@/lib/services/oauth/approve-authorization";
import { authenticateClient } from "@/lib/services/oauth/authenticate-client";
import { exchangeCode } from "@/lib/services/oauth/exchange-code";
import { refreshTokens } from "@/lib/services/oauth/refresh-tokens";
import { registerClient } from "@/lib/services/oauth/register-client";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { createToken } from "@/lib/services/tokens/create-token";
import { verifyToken } from "@/lib/services/tokens/verify-token";
import { connectionSpend } from "@/lib/services/usage/connection-spend";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { authorizationParams, pkce } from "@/tests/support/oauth";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";

const RESOURCE = "https://searchmux.test/api/mcp";
const REDIRECT = "https://app.example/oauth/callback";
const DAY_MS = 86_400_000;

describe.each(databaseTargets())("connection spend on $name", (target) => {
  let t: TestDatabase;
  let platform: Platform;
  /** Workspace A: its owner (an admin) and a member; workspace B: its owner. */
  let owner: TenantContext;
  let member: TenantContext;
  let other: TenantContext;
  const tokenActor = (id: string, userId: string): Actor => ({
    kind: "token",
    tokenId: id,
    tokenName: id,
    userId,
  });

  /** One traced call of `ctx`'s connection costing `usd`, written through the trace sink. */
  function call(ctx: TenantContext, usd: number, createdAt = new Date()): void {
    if (ctx.actor.kind !== "token") throw new Error("a connection's call");
    const trace: TraceRecord = {
      id: randomUUID(),
      tenantId: ctx.tenantId,
      tool: "web_search",
      surface: "mcp",
      tokenId: ctx.actor.tokenId,
      tokenName: ctx.actor.tokenName,
      userId: ctx.actor.userId,
      status: "ok",
      durationMs: 5,
      cacheHit: usd === 0,
      input: { query: "q" },
      resultSummary: {},
      costMicros: usdToMicros(usd),
      error: null,
      createdAt,
      spans: [],
    };
    ctx.traces.record(trace);
  }

  const asToken = (ctx: TenantContext, tokenId: string, userId: string) =>
    tenantCtx(platform, ctx.tenantId, ctx.scopes, tokenActor(tokenId, userId), "mcp");

  /** A connected app of `userId` in `ctx`'s workspace through the OAuth verbs: its grant and access token's ids. */
  async function connectApp(ctx: TenantContext, userId: string) {
    const registered = await registerClient({
      ctx: platform,
      input: {
        metadata: { client_name: "Agent app", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" },
        address: `203.0.113.${Math.floor(Math.random() * 250) + 1}`,
      },
    });
    const pair = pkce();
    const approved = await approveAuthorization({
      ctx: systemCtx(platform, { kind: "user", userId }),
      input: {
        params: authorizationParams(registered.client_id, REDIRECT, pair.challenge),
        resources: [RESOURCE],
        tenantId: ctx.tenantId,
        scopes: ["mcp", "search"],
      },
    });
    if (!("code" in approved)) throw new Error(`refused: ${approved.refused.message}`);
    const client = await authenticateClient({
      ctx: platform,
      input: { clientId: registered.client_id, clientSecret: undefined },
    });
    const issued = await exchangeCode({
      ctx: platform,
      input: {
        client,
        exchange: {
          code: approved.code,
          codeVerifier: pair.verifier,
          redirectUri: REDIRECT,
          resource: RESOURCE,
        },
      },
    });
    if (!("access_token" in issued)) throw new Error("no tokens");
    const verified = await verifyToken({ ctx: platform, input: { token: issued.access_token } });
    if (!verified) throw new Error("the access token does not work");
    const [token] = await t.db.withSystem((tx) =>
      tx.select({ grantId: apiTokens.grantId }).from(apiTokens).where(eq(apiTokens.id, verified.tokenId)),
    );
    return {
      client,
      grantId: token?.grantId ?? "",
      tokenId: verified.tokenId,
      refreshToken: issued.refresh_token,
    };
  }

  beforeAll(async () => {
    t = await target.create();
    platform = testPlatform(t.db);
    const created = await t.db.withSystem((tx) =>
      tx
        .insert(users)
        .values(["owner", "member", "other"].map((name) => ({ email: `${name}@spend.test`, name })))
        .returning({ id: users.id, name: users.name }),
    );
    const id = (name: string) => created.find((user) => user.name === name)?.id ?? "";
    const workspace = async (name: string, ownerUserId: string) =>
      (await createTenant({ ctx: systemCtx(platform), input: { name, ownerUserId } })).id;
    const a = await workspace("A", id("owner"));
    const b = await workspace("B", id("other"));
    await t.db.withSystem((tx) =>
      tx.insert(memberships).values({ tenantId: a, userId: id("member"), role: "member" }),
    );
    const signedIn = (tenantId: string, userId: string, role: "owner" | "member") =>
      tenantCtx(platform, tenantId, scopesOfRole(role), { kind: "user", userId }, "playground");
    owner = signedIn(a, id("owner"), "owner");
    member = signedIn(a, id("member"), "member");
    other = signedIn(b, id("other"), "owner");
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it("counts each connection's calls and spend this month, apps by their grant even once their token is gone", async () => {
    const ownerToken = await createToken({ ctx: owner, input: { name: "owner-agent" } });
    const memberToken = await createToken({ ctx: member, input: { name: "member-agent" } });
    const otherToken = await createToken({ ctx: other, input: { name: "b-agent" } });
    const app = await connectApp(owner, (owner.actor as { userId: string }).userId);
    const otherApp = await connectApp(other, (other.actor as { userId: string }).userId);
    const ownerId = (owner.actor as { userId: string }).userId;
    const memberId = (member.actor as { userId: string }).userId;
    const otherId = (other.actor as { userId: string }).userId;

    call(asToken(owner, ownerToken.id, ownerId), 0.004);
    call(asToken(owner, ownerToken.id, ownerId), 0.0025);
    call(asToken(owner, ownerToken.id, ownerId), 0); // a cache hit: a call, nothing spent
    call(asToken(owner, ownerToken.id, ownerId), 5, new Date(Date.UTC(2000, 0, 31))); // another month
    call(asToken(member, memberToken.id, memberId), 0.001);
    call(asToken(owner, app.tokenId, ownerId), 0.016);
    call(asToken(owner, app.tokenId, ownerId), 0.006);
    call(asToken(other, otherToken.id, otherId), 1);
    call(asToken(other, otherApp.tokenId, otherId), 2);
    await platform.traces.flush();

    // The app refreshes two days later: its first access token, long expired, is deleted.
    const later = { ...platform, now: () => new Date(Date.now() + 2 * DAY_MS) };
    await refreshTokens({
      ctx: later,
      input: {
        client: app.client,
        refresh: { refreshToken: app.refreshToken, scope: undefined, resource: RESOURCE },
      },
    });
    const left = await t.db.withSystem((tx) =>
      tx.select().from(apiTokens).where(eq(apiTokens.id, app.tokenId)),
    );
    expect(left).toEqual([]);

    const spend = await connectionSpend({ ctx: owner });
    const now = new Date();
    expect(spend.since).toBe(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString());
    expect(spend.tokens).toEqual({
      [ownerToken.id]: { usd: 0.0065, calls: 3 },
      [memberToken.id]: { usd: 0.001, calls: 1 },
    });
    expect(spend.apps).toEqual({ [app.grantId]: { usd: 0.022, calls: 2 } });
  });

  it("shows a member their own connections only", async () => {
    const spend = await connectionSpend({ ctx: member });
    expect(Object.values(spend.tokens)).toEqual([{ usd: 0.001, calls: 1 }]);
    expect(spend.apps).toEqual({});
  });

  it("never counts or shows another workspace's connections", async () => {
    const spend = await connectionSpend({ ctx: other });
    expect(Object.values(spend.tokens)).toEqual([{ usd: 1, calls: 1 }]);
    expect(Object.values(spend.apps)).toEqual([{ usd: 2, calls: 1 }]);
    // A's connections are not B's, even asked for with B's context on A's ids.
    const fromA = await connectionSpend({ ctx: owner });
    for (const id of [...Object.keys(spend.tokens), ...Object.keys(spend.apps)]) {
      expect(fromA.tokens).not.toHaveProperty(id);
      expect(fromA.apps).not.toHaveProperty(id);
    }
  });

  it("is refused to a token without the admin scope, which manages no connections", async () => {
    const token = await createToken({ ctx: owner, input: { name: "reader", scopes: ["search"] } });
    const asReader = tenantCtx(
      platform,
      owner.tenantId,
      ["search"],
      tokenActor(token.id, (owner.actor as { userId: string }).userId),
      "rest",
    );
    await expect(connectionSpend({ ctx: asReader })).rejects.toMatchObject({ code: "forbidden" });
  });
});
