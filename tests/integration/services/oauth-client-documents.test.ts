/**
 * MCP authorization (#17): clients known by a Client ID Metadata Document (the client_id is an HTTPS
 * URL). The document is fetched from a real HTTPS site on 127.0.0.1 (allowlisted like an operator's
 * internal host would be; this process skips certificate checks, which the end-to-end test makes against
 * a server trusting the site's authority) through the SSRF guard, within its size and time limits,
 * validated and cached. Only for a signed-in member (the consent page), within their hourly allowance,
 * and a refusal tells them nothing of what the URL answered; without the allowlist a private address is
 * refused before any connection. A client that went through consent is then known as stored: its code
 * and refresh tokens work after the document's cache lapsed, with no fetch.
 */
import { inArray, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oauthClients, users } from "@/lib/db/schema";
import type { Platform, SystemContext } from "@/lib/pipeline/context";
import { approveAuthorization } from "@/lib/services/oauth/approve-authorization";
import { authenticateClient } from "@/lib/services/oauth/authenticate-client";
import { checkAuthorizationRequest } from "@/lib/services/oauth/authorization-request";
import { UNREADABLE_CLIENT_DOCUMENT } from "@/lib/services/oauth/client-document";
import { exchangeCode } from "@/lib/services/oauth/exchange-code";
import { OAuthError } from "@/lib/services/oauth/oauth-error";
import {
  CLIENT_DOCUMENT_FETCHES_PER_MEMBER_HOUR,
  CLIENT_DOCUMENT_MAX_BYTES,
  CLIENT_DOCUMENT_TIMEOUT_MS,
  MAX_UNUSED_CLIENTS,
  NEW_CLIENT_SECONDS,
} from "@/lib/services/oauth/policy";
import { deleteEndedOAuthRecords } from "@/lib/services/oauth/prune-oauth";
import { refreshTokens } from "@/lib/services/oauth/refresh-tokens";
import { registerClient } from "@/lib/services/oauth/register-client";
import { resolveClient } from "@/lib/services/oauth/resolve-client";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { createLocalCa, type LocalCa } from "@/tests/reliability/support/local-ca";
import {
  type ClientDocumentSite,
  clientDocument,
  startClientDocumentSite,
} from "@/tests/support/client-documents";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { authorizationParams, pkce } from "@/tests/support/oauth";
import { systemCtx, testPlatform } from "@/tests/support/platform";

const REDIRECT = "http://127.0.0.1:8976/callback";
const RESOURCE = "https://searchmux.test/api/mcp";
const [pglite] = databaseTargets();

describe("Client ID Metadata Documents", () => {
  let t: TestDatabase;
  let site: ClientDocumentSite;
  let ca: LocalCa;
  let platform: Platform;
  let unlisted: Platform;
  let ownerId = "";
  let tenantId = "";
  const previousTlsSetting = process.env.NODE_TLS_REJECT_UNAUTHORIZED;

  beforeAll(async () => {
    if (!pglite) throw new Error("no database target");
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0";
    t = await pglite.create();
    ca = createLocalCa();
    site = await startClientDocumentSite(ca);
    platform = testPlatform(t.db, { env: { SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1" } });
    unlisted = testPlatform(t.db);
    const [owner] = await t.db.withSystem((tx) =>
      tx.insert(users).values({ email: "documents@oauth.test" }).returning({ id: users.id }),
    );
    if (!owner) throw new Error("no user");
    ownerId = owner.id;
    tenantId = (
      await createTenant({ ctx: systemCtx(platform), input: { name: "docs", ownerUserId: ownerId } })
    ).id;
  });
  afterAll(async () => {
    if (previousTlsSetting === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    else process.env.NODE_TLS_REJECT_UNAUTHORIZED = previousTlsSetting;
    await site?.close();
    ca?.remove();
    await t?.cleanup();
  });

  /** The consent page's context: a signed-in member (each test its own, so their allowances do not mix). */
  const asMember = (base: Platform = platform, userId: string = crypto.randomUUID()): SystemContext =>
    systemCtx(base, { kind: "user", userId });
  const at = (msFromNow: number): Platform => ({ ...platform, now: () => new Date(Date.now() + msFromNow) });
  const resolve = (clientId: string, ctx: Platform = asMember()) =>
    resolveClient({ ctx, input: { clientId } });
  async function refusal(clientId: string, ctx: Platform = asMember()): Promise<OAuthError> {
    const error = await resolve(clientId, ctx).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OAuthError);
    return error as OAuthError;
  }
  /** A refusal that says only that the document could not be read. */
  async function unreadable(clientId: string, ctx?: Platform): Promise<void> {
    expect(await refusal(clientId, ctx)).toMatchObject({
      code: "invalid_client",
      message: UNREADABLE_CLIENT_DOCUMENT,
    });
  }
  const storedIds = async (ids: string[]) =>
    (
      await t.db.withSystem((tx) =>
        tx.select({ id: oauthClients.id }).from(oauthClients).where(inArray(oauthClients.id, ids)),
      )
    ).map((row) => row.id);

  it("resolves a client from its document, and keeps it while its Cache-Control allows", async () => {
    const url = site.serve("/good.json", (self) => ({
      body: clientDocument(self, [REDIRECT], {
        client_name: "Doc Client",
        client_uri: "https://client.example",
      }),
      headers: { "cache-control": "max-age=600" },
    }));
    expect(await resolve(url)).toMatchObject({
      id: url,
      kind: "metadata_document",
      name: "Doc Client",
      redirectUris: [REDIRECT],
      tokenEndpointAuthMethod: "none",
    });
    await resolve(url);
    expect(site.hits("/good.json")).toBe(1);
    await resolve(url, asMember(at(601_000)));
    expect(site.hits("/good.json")).toBe(2);
  });

  it("checks authorization requests against the document's redirect URIs", async () => {
    const url = site.serve("/redirects.json", (self) => ({ body: clientDocument(self, [REDIRECT]) }));
    const member = asMember();
    const check = (redirectUri: string) =>
      checkAuthorizationRequest({
        ctx: member,
        input: {
          params: authorizationParams(url, redirectUri, pkce().challenge),
          resources: [RESOURCE],
        },
      });
    expect(await check(REDIRECT)).toHaveProperty("request");
    await expect(check("https://attacker.example/callback")).rejects.toThrow(/redirect_uri/);
  });

  it("fetches nothing without a signed-in member", async () => {
    const url = site.serve("/anonymous.json", (self) => ({ body: clientDocument(self, [REDIRECT]) }));
    expect(await refusal(url, platform)).toMatchObject({
      code: "invalid_client",
      message: "unknown client_id",
    });
    expect(site.hits("/anonymous.json")).toBe(0);
  });

  it("tells a member nothing of what a URL answered that is no client's document", async () => {
    const other = site.serve("/other.json", {
      body: clientDocument("https://elsewhere.example/c.json", [REDIRECT]),
    });
    await unreadable(other);
    const internal = site.serve("/internal.json", { body: JSON.stringify({ internal: "s3cret-answer" }) });
    const message = (await refusal(internal)).message;
    expect(message).toBe(UNREADABLE_CLIENT_DOCUMENT);
    expect(message).not.toContain("127.0.0.1");
    await unreadable(site.serve("/broken.json", { body: "{not json" }));
    await unreadable(site.serve("/gone.json", { status: 410, body: "{}" }));
    expect(await storedIds([other, internal])).toEqual([]);
  });

  it("refuses a document with a shared secret, saying so", async () => {
    const secret = site.serve("/secret.json", (self) => ({
      body: clientDocument(self, [REDIRECT], { token_endpoint_auth_method: "client_secret_basic" }),
    }));
    expect((await refusal(secret)).message).toMatch(/token_endpoint_auth_method 'none'/);
  });

  it("refuses an oversized document", async () => {
    const url = site.serve("/large.json", (self) => ({
      body: clientDocument(self, [REDIRECT], { padding: "x".repeat(CLIENT_DOCUMENT_MAX_BYTES) }),
    }));
    await unreadable(url);
    expect(site.hits("/large.json")).toBe(1);
  });

  it("refuses a document slower than its time limit", async () => {
    const url = site.serve("/slow.json", (self) => ({
      body: clientDocument(self, [REDIRECT]),
      delayMs: 4 * CLIENT_DOCUMENT_TIMEOUT_MS,
    }));
    await unreadable(url);
    // Refused before the site answered (4× the time limit): the limit, not the reply, ended the wait.
    expect(site.hits("/slow.json")).toBe(1);
    expect(site.answered("/slow.json")).toBe(0);
  });

  it("refuses a redirect to the document", async () => {
    const target = site.serve("/target.json", (self) => ({ body: clientDocument(self, [REDIRECT]) }));
    const url = site.serve("/moved.json", { status: 302, body: "", headers: { location: target } });
    await unreadable(url);
    expect(site.hits("/target.json")).toBe(0);
  });

  it("refuses a private address the operator did not allow, before connecting", async () => {
    const url = site.serve("/private.json", (self) => ({ body: clientDocument(self, [REDIRECT]) }));
    const member = asMember(unlisted);
    await unreadable(url, member);
    expect(site.hits("/private.json")).toBe(0);
    await unreadable("https://localhost/client.json", member);
    await unreadable("https://169.254.169.254/latest/meta-data", member);
  });

  it("does not take an http URL, or one without a path, for a document", async () => {
    expect((await refusal(`http://127.0.0.1/client.json`)).message).toBe("unknown client_id");
    expect((await refusal(site.origin)).message).toBe("unknown client_id");
  });

  it("fetches documents for a member within their hourly allowance, another member's apart", async () => {
    const member = asMember();
    for (let i = 0; i < CLIENT_DOCUMENT_FETCHES_PER_MEMBER_HOUR; i++) {
      await unreadable(`${site.origin}/allowance-${i}.json`, member);
    }
    const over = await refusal(
      site.serve("/allowance-over.json", (self) => ({ body: clientDocument(self, [REDIRECT]) })),
      member,
    );
    expect(over.code).toBe("temporarily_unavailable");
    expect(over.retryAfter).toBeGreaterThan(0);
    expect(site.hits("/allowance-over.json")).toBe(0);
    expect(await resolve(`${site.origin}/allowance-over.json`)).toHaveProperty("kind", "metadata_document");
  });

  it("knows a client that went through consent after its document's cache lapsed: code, refresh, no fetch", async () => {
    const url = site.serve("/consented.json", (self) => ({
      body: clientDocument(self, [REDIRECT]),
      headers: { "cache-control": "max-age=60" },
    }));
    const pair = pkce();
    const approved = await approveAuthorization({
      ctx: asMember(platform, ownerId),
      input: {
        params: authorizationParams(url, REDIRECT, pair.challenge),
        resources: [RESOURCE],
        tenantId,
        scopes: ["mcp"],
      },
    });
    if (!("code" in approved)) throw new Error(approved.refused.message);
    expect(site.hits("/consented.json")).toBe(1);
    // The document changes after consent: the token endpoint keeps to what was stored then.
    site.serve("/consented.json", { status: 500, body: "{}" });

    const clientAt = (ctx: Platform) =>
      authenticateClient({ ctx, input: { clientId: url, clientSecret: undefined } });
    const threeMinutesOn = at(3 * 60_000);
    const tokens = await exchangeCode({
      ctx: threeMinutesOn,
      input: {
        client: await clientAt(threeMinutesOn),
        exchange: {
          code: approved.code,
          codeVerifier: pair.verifier,
          redirectUri: REDIRECT,
          resource: RESOURCE,
        },
      },
    });
    const twentyDaysOn = at(20 * 86_400_000);
    const refreshed = await refreshTokens({
      ctx: twentyDaysOn,
      input: {
        client: await clientAt(twentyDaysOn),
        refresh: { refreshToken: tokens.refresh_token, scope: undefined, resource: RESOURCE },
      },
    });
    expect(refreshed.refresh_token).toMatch(/^smr_/);
    expect(site.hits("/consented.json")).toBe(1);
    // Pruning at that time keeps it: its grant is alive.
    await t.db.withSystem((tx) => deleteEndedOAuthRecords(tx, new Date(Date.now() + 20 * 86_400_000)));
    expect(await storedIds([url])).toEqual([url]);
  });

  it("forgets a document client nobody authorized after NEW_CLIENT_SECONDS", async () => {
    const url = site.serve("/viewed.json", (self) => ({
      body: clientDocument(self, [REDIRECT]),
      headers: { "cache-control": "max-age=86400" },
    }));
    await resolve(url);
    const later = at((NEW_CLIENT_SECONDS + 60) * 1000);
    expect(
      (
        await authenticateClient({ ctx: later, input: { clientId: url, clientSecret: undefined } }).catch(
          (e) => e,
        )
      ).code,
    ).toBe("invalid_client");
    await t.db.withSystem((tx) => deleteEndedOAuthRecords(tx, later.now()));
    expect(await storedIds([url])).toEqual([]);
  });

  it("bounds the document clients nobody authorized, apart from registrations", async () => {
    const now = Date.now();
    await t.db.withSystem((tx) =>
      tx.execute(sql`insert into oauth_clients (id, kind, name, redirect_uris, token_endpoint_auth_method, expires_at, document_expires_at)
        select 'https://filler.example/' || i, 'metadata_document', 'filler', array[${REDIRECT}], 'none',
               ${new Date(now + 600_000).toISOString()}::timestamptz, ${new Date(now + 600_000).toISOString()}::timestamptz
          from generate_series(1, ${MAX_UNUSED_CLIENTS}) i`),
    );
    const url = site.serve("/crowded.json", (self) => ({ body: clientDocument(self, [REDIRECT]) }));
    const crowded = await refusal(url);
    expect(crowded.code).toBe("temporarily_unavailable");
    expect(await storedIds([url])).toEqual([]);
    const registered = await registerClient({
      ctx: platform,
      input: {
        metadata: { redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" },
        address: "192.0.2.7",
      },
    });
    expect(registered.client_id).toMatch(/^smxc_/);
    // Once they are forgotten there is room again.
    expect(await resolve(url, asMember(at(601_000)))).toHaveProperty("id", url);
    await t.db.withSystem((tx) =>
      tx.delete(oauthClients).where(like(oauthClients.id, "https://filler.example/%")),
    );
  });
});
