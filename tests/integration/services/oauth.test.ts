/**
 * MCP authorization (#17), Searchmux as its own OAuth authorization server, through its verbs on each
 * database: registration and its limits, the authorization request's checks, consent, the code
 * exchange with PKCE, refresh rotation with reuse detection, revocation, and connected apps. Access
 * tokens are API tokens: verifyToken tells whether one still works (and its audience).
 */
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memberships, oauthClients, users } from "@/lib/db/schema";
import type { Env } from "@/lib/pipeline/capabilities";
import type { Platform, Scope, SystemContext } from "@/lib/pipeline/context";
import { approveAuthorization } from "@/lib/services/oauth/approve-authorization";
import { authenticateClient, CLIENT_AUTHENTICATION_FAILED } from "@/lib/services/oauth/authenticate-client";
import { checkAuthorizationRequest } from "@/lib/services/oauth/authorization-request";
import { exchangeCode } from "@/lib/services/oauth/exchange-code";
import { listConnectedApps } from "@/lib/services/oauth/list-connected-apps";
import { OAuthError } from "@/lib/services/oauth/oauth-error";
import { NEW_CLIENT_SECONDS, REGISTRATIONS_PER_ADDRESS_HOUR } from "@/lib/services/oauth/policy";
import { deleteEndedOAuthRecords } from "@/lib/services/oauth/prune-oauth";
import { refreshTokens } from "@/lib/services/oauth/refresh-tokens";
import { REGISTRATION_NEEDS_ADDRESS, registerClient } from "@/lib/services/oauth/register-client";
import { revokeConnectedApp } from "@/lib/services/oauth/revoke-connected-app";
import { revokeOAuthToken } from "@/lib/services/oauth/revoke-oauth-token";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { listTokens } from "@/lib/services/tokens/list-tokens";
import { verifyToken } from "@/lib/services/tokens/verify-token";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { authorizationParams, type Pkce, pkce } from "@/tests/support/oauth";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";

const RESOURCE = "https://searchmux.test/api/mcp";
const RESOURCES = [RESOURCE];
const REDIRECT = "https://app.example/oauth/callback";

/** The OAuthError a promise rejects with (fails the test when it resolves). */
async function oauthError(promise: Promise<unknown>): Promise<OAuthError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OAuthError);
  return error as OAuthError;
}

describe.each(databaseTargets())("OAuth authorization server on $name", (target) => {
  let t: TestDatabase;
  let platform: Platform;
  let tenantId: string;
  const ids = { owner: "", member: "", outsider: "" };
  const asUser = (userId: string): SystemContext => systemCtx(platform, { kind: "user", userId });

  beforeAll(async () => {
    t = await target.create();
    platform = testPlatform(t.db);
    const created = await t.db.withSystem((tx) =>
      tx
        .insert(users)
        .values(["owner", "member", "outsider"].map((name) => ({ email: `${name}@oauth.test`, name })))
        .returning({ id: users.id, name: users.name }),
    );
    for (const user of created) ids[user.name as keyof typeof ids] = user.id;
    tenantId = (
      await createTenant({ ctx: systemCtx(platform), input: { name: "oauth", ownerUserId: ids.owner } })
    ).id;
    await t.db.withSystem((tx) =>
      tx.insert(memberships).values({ tenantId, userId: ids.member, role: "member" }),
    );
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  let addresses = 0;
  const register = (metadata: Record<string, unknown>, address = `203.0.113.${++addresses}`) =>
    registerClient({ ctx: platform, input: { metadata, address } });
  const publicClient = () =>
    register({ client_name: "Test client", redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" });
  const storedIds = async (ids: string[]) =>
    (
      await t.db.withSystem((tx) =>
        tx.select({ id: oauthClients.id }).from(oauthClients).where(inArray(oauthClients.id, ids)),
      )
    ).map((row) => row.id);
  const client = (clientId: string, clientSecret?: string) =>
    authenticateClient({ ctx: platform, input: { clientId, clientSecret } });

  type Exchange = Parameters<typeof exchangeCode>[0]["input"]["exchange"];
  const exchangeAs = async (clientId: string, exchange: Exchange, ctx: Platform = platform) =>
    exchangeCode({ ctx, input: { client: await client(clientId), exchange } });
  const refreshAs = async (clientId: string, refreshToken: string, resource?: string) =>
    refreshTokens({
      ctx: platform,
      input: { client: await client(clientId), refresh: { refreshToken, scope: undefined, resource } },
    });

  /** Consent by `userId` for the client, the code and its PKCE pair. */
  async function authorize(
    clientId: string,
    {
      userId = ids.owner,
      scopes = ["mcp", "search"] as Scope[],
      redirect = REDIRECT,
      pair = pkce(),
    }: { userId?: string; scopes?: Scope[]; redirect?: string; pair?: Pkce } = {},
  ): Promise<{ code: string; pair: Pkce }> {
    const approved = await approveAuthorization({
      ctx: asUser(userId),
      input: {
        params: authorizationParams(clientId, redirect, pair.challenge),
        resources: RESOURCES,
        tenantId,
        scopes,
      },
    });
    if (!("code" in approved)) throw new Error(`refused: ${approved.refused.message}`);
    expect(approved).toMatchObject({ redirectUri: redirect, state: "client-state" });
    return { code: approved.code, pair };
  }

  async function connect(clientId: string, options: Parameters<typeof authorize>[1] = {}) {
    const { code, pair } = await authorize(clientId, options);
    return exchangeAs(clientId, {
      code,
      codeVerifier: pair.verifier,
      redirectUri: options.redirect ?? REDIRECT,
      resource: RESOURCE,
    });
  }

  const works = async (accessToken: string) =>
    (await verifyToken({ ctx: platform, input: { token: accessToken } })) !== null;

  describe("registration (RFC 7591)", () => {
    it("registers a public client without a secret and a confidential one with a secret it must present", async () => {
      const open = await publicClient();
      expect(open).toMatchObject({
        client_name: "Test client",
        token_endpoint_auth_method: "none",
        redirect_uris: [REDIRECT],
      });
      expect(open).not.toHaveProperty("client_secret");
      const confidential = await register({ client_name: "Server app", redirect_uris: [REDIRECT] });
      expect(confidential.token_endpoint_auth_method).toBe("client_secret_basic");
      expect(confidential.client_secret).toMatch(/^smcs_/);
      expect((await client(confidential.client_id, confidential.client_secret)).id).toBe(
        confidential.client_id,
      );
      expect((await oauthError(client(confidential.client_id, "smcs_wrong"))).code).toBe("invalid_client");
      expect((await oauthError(client(confidential.client_id))).code).toBe("invalid_client");
    });

    it.each([
      ["plain HTTP off loopback", ["http://app.example/callback"]],
      ["a script URI", ["javascript:alert(1)"]],
      ["a fragment", ["https://app.example/cb#x"]],
      ["eleven URIs", Array.from({ length: 11 }, (_, i) => `https://app.example/cb${i}`)],
      ["none", []],
    ])("refuses redirect URIs: %s", async (_, redirectUris) => {
      expect((await oauthError(register({ redirect_uris: redirectUris }))).code).toBe("invalid_redirect_uri");
    });

    it("refuses grant types other than the code and refresh grants", async () => {
      const error = await oauthError(
        register({ redirect_uris: [REDIRECT], grant_types: ["client_credentials"] }),
      );
      expect(error.code).toBe("invalid_client_metadata");
    });

    it("holds a client address to its hourly registrations", async () => {
      const address = "198.51.100.77";
      for (let i = 0; i < REGISTRATIONS_PER_ADDRESS_HOUR; i++) {
        await register({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" }, address);
      }
      const error = await oauthError(register({ redirect_uris: [REDIRECT] }, address));
      expect(error).toMatchObject({ code: "temporarily_unavailable" });
      expect(error.retryAfter).toBeGreaterThan(0);
      await register({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" }, "198.51.100.78");
    });

    it("forgets a client nobody authorized within NEW_CLIENT_SECONDS, and deletes it at a later registration", async () => {
      const stale = await publicClient();
      const later: Platform = {
        ...platform,
        now: () => new Date(Date.now() + (NEW_CLIENT_SECONDS + 60) * 1000),
      };
      const refused = await oauthError(
        authenticateClient({ ctx: later, input: { clientId: stale.client_id, clientSecret: undefined } }),
      );
      expect(refused).toMatchObject({ code: "invalid_client", message: CLIENT_AUTHENTICATION_FAILED });
      await registerClient({
        ctx: later,
        input: { metadata: { redirect_uris: [REDIRECT] }, address: "198.51.100.9" },
      });
      expect(await storedIds([stale.client_id])).toEqual([]);
    });

    it("registers without a client address only on a local server, and says why elsewhere", async () => {
      const withoutAddress = (env: Env) =>
        registerClient({
          ctx: { ...platform, env },
          input: {
            metadata: { redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" },
            address: null,
          },
        });
      expect((await withoutAddress({})).client_id).toMatch(/^smxc_/);
      expect((await withoutAddress({ AUTH_URL: "http://localhost:3000" })).client_id).toMatch(/^smxc_/);
      for (const env of [
        { AUTH_URL: "https://searchmux.example" },
        { SEARCHMUX_ALLOWED_HOSTS: "searchmux.lan" },
      ]) {
        expect(await oauthError(withoutAddress(env))).toMatchObject({
          code: "access_denied",
          message: REGISTRATION_NEEDS_ADDRESS,
        });
      }
    });
  });

  describe("pruning (the prune-oauth job)", () => {
    it("deletes clients nobody authorized within a quarter hour, and keeps authorized ones", async () => {
      const [unused, authorized] = await Promise.all([publicClient(), publicClient()]);
      await connect(authorized.client_id);
      const prune = (minutesOn: number) =>
        t.db.withSystem((tx) => deleteEndedOAuthRecords(tx, new Date(Date.now() + minutesOn * 60_000)));
      await prune(14);
      expect(await storedIds([unused.client_id, authorized.client_id])).toHaveLength(2);
      await prune(16);
      expect(await storedIds([unused.client_id, authorized.client_id])).toEqual([authorized.client_id]);
    });
  });

  describe("the authorization request", () => {
    const check = (params: ReturnType<typeof authorizationParams>) =>
      checkAuthorizationRequest({ ctx: platform, input: { params, resources: RESOURCES } });

    it("refuses, without redirecting, a redirect URI the client did not register", async () => {
      const { client_id } = await publicClient();
      const error = await oauthError(
        check(authorizationParams(client_id, "https://evil.example/cb", pkce().challenge)),
      );
      expect(error.message).toMatch(/redirect_uri/);
    });

    it("refuses an unknown client without redirecting", async () => {
      expect(
        (await oauthError(check(authorizationParams("smxc_nobody", REDIRECT, pkce().challenge)))).code,
      ).toBe("invalid_client");
    });

    it("accepts a loopback redirect URI on another port than registered (RFC 8252)", async () => {
      const { client_id } = await register({
        redirect_uris: ["http://127.0.0.1:3000/callback"],
        token_endpoint_auth_method: "none",
      });
      const checked = await check(
        authorizationParams(client_id, "http://127.0.0.1:49152/callback", pkce().challenge),
      );
      expect(checked).toMatchObject({ request: { redirectUri: "http://127.0.0.1:49152/callback" } });
      await expect(
        check(authorizationParams(client_id, "http://127.0.0.1:49152/other", pkce().challenge)),
      ).rejects.toThrow(/redirect_uri/);
    });

    it.each([
      ["no PKCE", { code_challenge: undefined }, "invalid_request"],
      ["plain PKCE", { code_challenge_method: "plain" }, "invalid_request"],
      ["a token response type", { response_type: "token" }, "unsupported_response_type"],
      ["another resource", { resource: "https://other.example/mcp" }, "invalid_target"],
    ])("answers %s at the redirect URI with the state", async (_, extra, code) => {
      const { client_id } = await publicClient();
      const checked = await check({
        ...authorizationParams(client_id, REDIRECT, pkce().challenge),
        ...extra,
      });
      expect(checked).toMatchObject({ redirectUri: REDIRECT, state: "client-state", refused: { code } });
    });

    it("binds the default resource, and the resource with a trailing slash, to the canonical one", async () => {
      const { client_id } = await publicClient();
      for (const resource of [undefined, `${RESOURCE}/`]) {
        const checked = await check({
          ...authorizationParams(client_id, REDIRECT, pkce().challenge),
          resource,
        });
        expect(checked).toMatchObject({ request: { resource: RESOURCE } });
      }
    });
  });

  describe("consent and code exchange", () => {
    it("issues an access token for the resource with the approved scopes, and a refresh token", async () => {
      const { client_id } = await publicClient();
      const tokens = await connect(client_id);
      expect(tokens).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "search mcp" });
      expect(tokens.refresh_token).toMatch(/^smr_/);
      const verified = await verifyToken({ ctx: platform, input: { token: tokens.access_token } });
      expect(verified).toMatchObject({
        tenantId,
        audience: RESOURCE,
        createdBy: ids.owner,
        name: "Test client",
      });
      expect(verified?.scopes.sort()).toEqual(["mcp", "search"]);
    });

    it("never grants a member a scope beyond their role, and refuses consent to a non-member", async () => {
      const { client_id } = await publicClient();
      const tokens = await connect(client_id, { userId: ids.member, scopes: ["mcp", "admin"] });
      expect(tokens.scope).toBe("mcp");
      await expect(authorize(client_id, { userId: ids.outsider })).rejects.toThrow(/not a member/);
    });

    it("refuses a wrong PKCE verifier and uses the code up", async () => {
      const { client_id } = await publicClient();
      const { code, pair } = await authorize(client_id);
      const exchange = { code, codeVerifier: pkce().verifier, redirectUri: REDIRECT, resource: RESOURCE };
      const wrong = await oauthError(exchangeAs(client_id, exchange));
      expect(wrong).toMatchObject({ code: "invalid_grant", message: expect.stringMatching(/code_verifier/) });
      const retried = { ...exchange, codeVerifier: pair.verifier };
      expect((await oauthError(exchangeAs(client_id, retried))).code).toBe("invalid_grant");
    });

    it("refuses a reused code and revokes what its first exchange issued", async () => {
      const { client_id } = await publicClient();
      const { code, pair } = await authorize(client_id);
      const exchange = { code, codeVerifier: pair.verifier, redirectUri: REDIRECT, resource: RESOURCE };
      const first = await exchangeAs(client_id, exchange);
      expect(await works(first.access_token)).toBe(true);
      const again = await oauthError(exchangeAs(client_id, exchange));
      expect(again).toMatchObject({ code: "invalid_grant", message: expect.stringMatching(/already used/) });
      expect(await works(first.access_token)).toBe(false);
      expect((await oauthError(refreshAs(client_id, first.refresh_token))).code).toBe("invalid_grant");
    });

    it("refuses a code presented by another client", async () => {
      const [mine, theirs] = await Promise.all([publicClient(), publicClient()]);
      const { code, pair } = await authorize(mine.client_id);
      const exchange = { code, codeVerifier: pair.verifier, redirectUri: REDIRECT, resource: RESOURCE };
      const error = await oauthError(exchangeAs(theirs.client_id, exchange));
      expect(error).toMatchObject({
        code: "invalid_grant",
        message: expect.stringMatching(/another client/),
      });
    });

    it("refuses an expired code, another redirect URI and another resource", async () => {
      const { client_id } = await publicClient();
      const later: Platform = { ...platform, now: () => new Date(Date.now() + 10 * 60_000) };
      const cases: Array<[Platform, Record<string, string>, string]> = [
        [later, {}, "invalid_grant"],
        [platform, { redirectUri: "https://app.example/other" }, "invalid_grant"],
        [platform, { resource: "https://other.example/mcp" }, "invalid_target"],
      ];
      for (const [ctx, override, expected] of cases) {
        const { code, pair } = await authorize(client_id);
        const exchange = {
          code,
          codeVerifier: pair.verifier,
          redirectUri: REDIRECT,
          resource: RESOURCE,
          ...override,
        };
        expect((await oauthError(exchangeAs(client_id, exchange, ctx))).code).toBe(expected);
      }
    });
  });

  describe("refresh tokens", () => {
    it("rotate: each is exchanged once for a new pair; presenting a used one revokes the whole grant", async () => {
      const { client_id } = await publicClient();
      const first = await connect(client_id);
      const refresh = (refreshToken: string) => refreshAs(client_id, refreshToken, RESOURCE);
      const second = await refresh(first.refresh_token);
      expect(second.refresh_token).not.toBe(first.refresh_token);
      expect(await works(second.access_token)).toBe(true);
      const reused = await oauthError(refresh(first.refresh_token));
      expect(reused).toMatchObject({ code: "invalid_grant", message: expect.stringMatching(/already used/) });
      expect(await works(second.access_token)).toBe(false);
      expect(await works(first.access_token)).toBe(false);
      expect((await oauthError(refresh(second.refresh_token))).code).toBe("invalid_grant");
    });

    it("end with the member's membership", async () => {
      const { client_id } = await publicClient();
      const [extra] = await t.db.withSystem((tx) =>
        tx.insert(users).values({ email: "leaving@oauth.test" }).returning({ id: users.id }),
      );
      if (!extra) throw new Error("no user");
      await t.db.withSystem((tx) =>
        tx.insert(memberships).values({ tenantId, userId: extra.id, role: "member" }),
      );
      const tokens = await connect(client_id, { userId: extra.id });
      await t.db.withSystem((tx) => tx.delete(memberships).where(eq(memberships.userId, extra.id)));
      const error = await oauthError(refreshAs(client_id, tokens.refresh_token));
      expect(error.message).toMatch(/no longer belongs/);
      expect(await works(tokens.access_token)).toBe(false);
    });
  });

  describe("revocation and connected apps", () => {
    it("revokes a refresh token's whole grant at the client's request (RFC 7009), another client's not at all", async () => {
      const [mine, theirs] = await Promise.all([publicClient(), publicClient()]);
      const tokens = await connect(mine.client_id);
      await revokeOAuthToken({
        ctx: platform,
        input: { client: await client(theirs.client_id), token: tokens.refresh_token },
      });
      expect(await works(tokens.access_token)).toBe(true);
      await revokeOAuthToken({
        ctx: platform,
        input: { client: await client(mine.client_id), token: tokens.refresh_token },
      });
      expect(await works(tokens.access_token)).toBe(false);
    });

    it("revokes an access token alone", async () => {
      const { client_id } = await publicClient();
      const tokens = await connect(client_id);
      await revokeOAuthToken({
        ctx: platform,
        input: { client: await client(client_id), token: tokens.access_token },
      });
      expect(await works(tokens.access_token)).toBe(false);
      const renewed = await refreshAs(client_id, tokens.refresh_token);
      expect(await works(renewed.access_token)).toBe(true);
    });

    it("lists connected apps (a member their own) apart from tokens, and disconnects one", async () => {
      const registered = await register({
        client_name: "Listed app",
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: "none",
      });
      const tokens = await connect(registered.client_id, { userId: ids.member, scopes: ["mcp", "search"] });
      const owner = tenantCtx(
        platform,
        tenantId,
        undefined,
        { kind: "user", userId: ids.owner },
        "playground",
      );
      const member = tenantCtx(
        platform,
        tenantId,
        ["mcp", "search", "fetch", "answer", "papers"],
        { kind: "user", userId: ids.member },
        "playground",
      );
      const listed = (await listConnectedApps({ ctx: owner })).find((app) => app.clientName === "Listed app");
      expect(listed).toMatchObject({
        clientId: registered.client_id,
        scopes: ["search", "mcp"],
        approvedBy: "member",
      });
      expect((await listConnectedApps({ ctx: member })).every((app) => app.approvedBy === "member")).toBe(
        true,
      );
      expect((await listTokens({ ctx: owner })).some((token) => token.name === "Listed app")).toBe(false);

      await revokeConnectedApp({ ctx: member, input: { id: listed?.id ?? "" } });
      expect(await works(tokens.access_token)).toBe(false);
      expect((await listConnectedApps({ ctx: owner })).some((app) => app.id === listed?.id)).toBe(false);
      expect((await oauthError(refreshAs(registered.client_id, tokens.refresh_token))).code).toBe(
        "invalid_grant",
      );
    });
  });
});
