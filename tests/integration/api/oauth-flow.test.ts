/**
 * MCP authorization (#17) over HTTP, in process: the official SDK client (its OAuthClientProvider and
 * Streamable HTTP transport) against the real route handlers, its fetch handed straight to them. From a
 * bare 401 it discovers the resource and authorization server, registers (RFC 7591), sends the member to
 * consent (done here through the consent page's verb; the end-to-end test clicks the page), exchanges the
 * code, lists tools and searches, refreshes; then what the endpoints refuse: a reused refresh token, a
 * token for another resource, an expired one, a missing scope, a failed client authentication; and what
 * the consent page shows for a request it refuses before consent (never a redirect to the client).
 */

import {
  IssuerMismatchError,
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
  UnauthorizedError as ModernUnauthorizedError,
} from "@modelcontextprotocol/client";
import { auth, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Platform, Scope } from "@/lib/pipeline/context";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { appFetch } from "@/tests/support/app-routes";
import { loopbackClientMetadata, MemoryOAuthClientProvider } from "@/tests/support/oauth-client-provider";
import { fakeProviderEnv } from "@/tests/support/provider-env";
import { inProcessApp, ownedWorkspace } from "@/tests/support/route-handlers";

const ORIGIN = "http://localhost:4317";
const MCP_URL = `${ORIGIN}/api/mcp`;
const REDIRECT = "http://127.0.0.1:8976/callback";
const app = inProcessApp("oauth-flow");
let fake: FakeProviders;
let userId = "";
let tenantId = "";

const post = (path: string, body: string | Record<string, unknown>, headers: Record<string, string> = {}) =>
  appFetch(`${ORIGIN}${path}`, {
    method: "POST",
    headers: {
      "content-type": typeof body === "string" ? "application/x-www-form-urlencoded" : "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
const initialize = (token?: string) =>
  post(
    "/api/mcp",
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    },
    token ? { authorization: `Bearer ${token}` } : {},
  );

/** What the consent page does when the member approves: the code, and the redirect back to the client. */
async function consent(authorizationUrl: URL, scopes: Scope[] = ["mcp", "search"], resource = MCP_URL) {
  const { approveAuthorization } = await import("@/lib/services/oauth/approve-authorization");
  const { parseAuthorizationQuery, authorizationResponseUrl } = await import("@/lib/api/oauth/authorization");
  const { systemContext } = await import("@/lib/pipeline/platform");
  const forwarded = await appFetch(authorizationUrl.toString(), { method: "GET" });
  expect(forwarded.status).toBe(302);
  const consentPage = new URL(forwarded.headers.get("location") ?? "", ORIGIN);
  expect(consentPage.pathname).toBe("/oauth/consent");
  const approved = await approveAuthorization({
    ctx: await systemContext({ kind: "user", userId }),
    input: { params: parseAuthorizationQuery(consentPage.search), resources: [resource], tenantId, scopes },
  });
  if (!("code" in approved)) throw new Error(approved.refused.message);
  return new URL(
    authorizationResponseUrl(approved.redirectUri, ORIGIN, { code: approved.code, state: approved.state }),
  );
}

/** A client signed in through the whole flow, and its provider (tokens, client information). */
async function signedInClient(name: string, scopes?: Scope[]) {
  const provider = new MemoryOAuthClientProvider(REDIRECT, loopbackClientMetadata(REDIRECT, name));
  const first = new StreamableHTTPClientTransport(new URL(MCP_URL), {
    authProvider: provider,
    fetch: appFetch,
  });
  await expect(new Client({ name, version: "1" }).connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
  if (!provider.authorizationUrl) throw new Error("the SDK did not start an authorization");
  const callback = await consent(provider.authorizationUrl, scopes);
  await first.finishAuth(callback.searchParams.get("code") ?? "");
  const client = new Client({ name, version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(MCP_URL), { authProvider: provider, fetch: appFetch }),
  );
  return { client, provider, callback };
}

const accessToken = (provider: MemoryOAuthClientProvider) => provider.tokens()?.access_token ?? "";

beforeAll(async () => {
  fake = await startFakeProviders();
  fake.setScenario("brave", {
    results: [{ title: "Otters", url: "https://otters.example/", snippet: "Otters hold hands." }],
  });
  await app.start({ AUTH_URL: ORIGIN, ...fakeProviderEnv(fake.url), BRAVE_API_KEY: "operator-brave" });
  ({ userId, tenantId } = await ownedWorkspace("oauth-flow@searchmux.test", "flow"));
});
afterAll(async () => {
  await fake?.close();
  await app.stop();
});

describe("discovery", () => {
  it("starts from a bare 401 that names the resource metadata and the scopes", async () => {
    const response = await initialize();
    expect(response.status).toBe(401);
    const challenge = response.headers.get("www-authenticate") ?? "";
    expect(challenge).toContain(`resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/api/mcp"`);
    expect(challenge).toContain('scope="mcp search fetch answer papers"');
    const metadata = await (await appFetch(`${ORIGIN}/.well-known/oauth-protected-resource/api/mcp`)).json();
    expect(metadata).toMatchObject({ resource: MCP_URL, authorization_servers: [ORIGIN] });
    const root = await (await appFetch(`${ORIGIN}/.well-known/oauth-protected-resource`)).json();
    expect(root).toEqual(metadata);
  });

  it("publishes the authorization server's metadata at both well-known locations", async () => {
    const response = await appFetch(`${ORIGIN}/.well-known/oauth-authorization-server`);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const metadata = await response.json();
    expect(metadata).toMatchObject({
      issuer: ORIGIN,
      authorization_endpoint: `${ORIGIN}/api/oauth/authorize`,
      token_endpoint: `${ORIGIN}/api/oauth/token`,
      registration_endpoint: `${ORIGIN}/api/oauth/register`,
      revocation_endpoint: `${ORIGIN}/api/oauth/revoke`,
      code_challenge_methods_supported: ["S256"],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    });
    expect(await (await appFetch(`${ORIGIN}/.well-known/openid-configuration`)).json()).toEqual(metadata);
  });

  it("answers a CORS preflight on the registration endpoint", async () => {
    const response = await appFetch(`${ORIGIN}/api/oauth/register`, { method: "OPTIONS" });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-headers")).toContain("content-type");
  });
});

/**
 * The checks of the MCP conformance suite's authorization-server scenarios (@modelcontextprotocol/conformance
 * 0.2.0-alpha.11, `authorization`: authorization-server-metadata and authorization-code-grant, whose browser
 * step is the consent verb here), made directly: the suite itself needs Node.js 22.
 */
describe("the conformance suite's authorization-server checks", () => {
  it("authorization-server-metadata: 200 JSON whose issuer is its URL without the well-known part", async () => {
    const response = await appFetch(`${ORIGIN}/.well-known/oauth-authorization-server`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const metadata = (await response.json()) as Record<string, unknown>;
    expect(metadata.issuer).toBe(ORIGIN);
    for (const field of ["authorization_endpoint", "token_endpoint", "response_types_supported"]) {
      expect(metadata[field], field).toBeDefined();
    }
    expect(metadata.client_id_metadata_document_supported).toBe(true);
  });

  it("authorization-code-grant: code, state and iss once each, no error; the token response 200 JSON, no-store", async () => {
    const { pkce, authorizationParams } = await import("@/tests/support/oauth");
    const registered = await post("/api/oauth/register", {
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: "none",
    });
    const { client_id } = (await registered.json()) as { client_id: string };
    const pair = pkce();
    const authorize = new URL(`${ORIGIN}/api/oauth/authorize`);
    for (const [name, value] of Object.entries(authorizationParams(client_id, REDIRECT, pair.challenge))) {
      if (value !== undefined) authorize.searchParams.set(name, value);
    }
    const callback = await consent(authorize);
    expect(`${callback.origin}${callback.pathname}`).toBe(REDIRECT);
    for (const name of ["code", "state", "iss"])
      expect(callback.searchParams.getAll(name), name).toHaveLength(1);
    expect(callback.searchParams.get("state")).toBe("client-state");
    expect(callback.searchParams.get("iss")).toBe(ORIGIN);
    expect(callback.searchParams.has("error")).toBe(false);

    const response = await post(
      "/api/oauth/token",
      new URLSearchParams({
        grant_type: "authorization_code",
        code: callback.searchParams.get("code") ?? "",
        redirect_uri: REDIRECT,
        code_verifier: pair.verifier,
        client_id,
        resource: MCP_URL,
      }).toString(),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toMatchObject({ access_token: expect.any(String), token_type: "Bearer" });
  });
});

describe("the SDK client's OAuth flow", () => {
  it("registers, is approved, searches with the issued token, and refreshes it", async () => {
    const { client, provider, callback } = await signedInClient("Flow client");
    expect(callback.searchParams.get("iss")).toBe(ORIGIN);
    expect(callback.searchParams.get("state")).toBe("sdk-state");
    expect(provider.authorizationUrl?.searchParams.get("resource")).toBe(MCP_URL);
    expect(provider.clientInformation()?.client_id).toMatch(/^smxc_/);

    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    expect(tools).toContain("web_search");
    expect(tools).not.toContain("fetch");
    const result = await client.callTool({
      name: "web_search",
      arguments: { query: "otters", providers: ["brave"] },
    });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.structuredContent)).toContain("https://otters.example/");

    const before = provider.tokens();
    expect(await auth(provider, { serverUrl: MCP_URL, fetchFn: appFetch })).toBe("AUTHORIZED");
    expect(provider.tokens()?.refresh_token).not.toBe(before?.refresh_token);
    expect((await initialize(accessToken(provider))).status).toBe(200);
    await client.close();
  });

  it("refuses a rotated refresh token and revokes the grant's tokens", async () => {
    const { client, provider } = await signedInClient("Reuse client");
    await client.close();
    const old = provider.tokens()?.refresh_token ?? "";
    await auth(provider, { serverUrl: MCP_URL, fetchFn: appFetch });
    expect((await initialize(accessToken(provider))).status).toBe(200);
    const clientId = provider.clientInformation()?.client_id ?? "";
    const reuse = await post(
      "/api/oauth/token",
      new URLSearchParams({
        grant_type: "refresh_token",
        refresh_token: old,
        client_id: clientId,
      }).toString(),
    );
    expect(reuse.status).toBe(400);
    expect(await reuse.json()).toMatchObject({ error: "invalid_grant" });
    expect(reuse.headers.get("cache-control")).toBe("no-store");
    const refused = await initialize(accessToken(provider));
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("revokes at the revocation endpoint (RFC 7009): the next call is refused", async () => {
    const { client, provider } = await signedInClient("Revoking client");
    await client.close();
    const form = new URLSearchParams({
      token: provider.tokens()?.refresh_token ?? "",
      client_id: provider.clientInformation()?.client_id ?? "",
    });
    expect((await post("/api/oauth/revoke", form.toString())).status).toBe(200);
    expect((await initialize(accessToken(provider))).status).toBe(401);
  });
});

describe("a 2026-07-28 client (the v2 SDK)", () => {
  function modernConnection(provider: MemoryOAuthClientProvider) {
    const transport = new ModernTransport(new URL(MCP_URL), { authProvider: provider, fetch: appFetch });
    const client = new ModernClient(
      { name: "modern", version: "1" },
      { versionNegotiation: { mode: { pin: "2026-07-28" } } },
    );
    return { client, transport, connected: client.connect(transport) };
  }

  it("signs in through the same flow (iss checked by the client) and searches with the issued token", async () => {
    const provider = new MemoryOAuthClientProvider(
      REDIRECT,
      loopbackClientMetadata(REDIRECT, "Modern client"),
    );
    const first = modernConnection(provider);
    await expect(first.connected).rejects.toBeInstanceOf(ModernUnauthorizedError);
    if (!provider.authorizationUrl) throw new Error("the SDK did not start an authorization");
    expect(provider.authorizationUrl.searchParams.get("resource")).toBe(MCP_URL);
    expect(provider.authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
    const callback = await consent(provider.authorizationUrl);
    // The v2 client refuses a callback whose iss is not the authorization server's (RFC 9207).
    const forged = new URLSearchParams(callback.searchParams);
    forged.set("iss", "https://elsewhere.example");
    await expect(first.transport.finishAuth(forged)).rejects.toBeInstanceOf(IssuerMismatchError);
    await first.transport.finishAuth(callback.searchParams);

    const { client, connected } = modernConnection(provider);
    await connected;
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const result = await client.callTool({
      name: "web_search",
      arguments: { query: "otters", providers: ["brave"] },
    });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.structuredContent)).toContain("https://otters.example/");
    // The grant has search only: fetch gets the step-up challenge, and the client goes back to the
    // authorization endpoint for the scopes it had plus fetch's.
    const granted = provider.authorizationUrl;
    await expect(
      client.callTool({ name: "fetch", arguments: { url: "https://a.test/" } }),
    ).rejects.toBeInstanceOf(ModernUnauthorizedError);
    expect(provider.authorizationUrl).not.toBe(granted);
    expect(provider.authorizationUrl?.searchParams.get("scope")?.split(" ").sort()).toEqual([
      "fetch",
      "mcp",
      "search",
    ]);
    await client.close();
  });
});

describe("what the endpoints refuse", () => {
  /** Tokens issued through the verbs for a fresh public client, at `now`, bound to `resource`. */
  async function issue({ scopes = ["mcp", "search"] as Scope[], resource = MCP_URL, hoursAgo = 0 } = {}) {
    const { registerClient } = await import("@/lib/services/oauth/register-client");
    const { exchangeCode } = await import("@/lib/services/oauth/exchange-code");
    const { authenticateClient } = await import("@/lib/services/oauth/authenticate-client");
    const { approveAuthorization } = await import("@/lib/services/oauth/approve-authorization");
    const { platform, systemContext } = await import("@/lib/pipeline/platform");
    const { pkce, authorizationParams } = await import("@/tests/support/oauth");
    const base = await platform();
    const registered = await registerClient({
      ctx: base,
      input: { metadata: { redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" }, address: null },
    });
    const pair = pkce();
    const approved = await approveAuthorization({
      ctx: await systemContext({ kind: "user", userId }),
      input: {
        params: authorizationParams(registered.client_id, REDIRECT, pair.challenge, { resource }),
        resources: [resource],
        tenantId,
        scopes,
      },
    });
    if (!("code" in approved)) throw new Error(approved.refused.message);
    const then: Platform = { ...base, now: () => new Date(Date.now() - hoursAgo * 3_600_000) };
    const client = await authenticateClient({
      ctx: base,
      input: { clientId: registered.client_id, clientSecret: undefined },
    });
    const exchange = { code: approved.code, codeVerifier: pair.verifier, redirectUri: REDIRECT, resource };
    return exchangeCode({ ctx: then, input: { client, exchange } });
  }

  it("a token issued for another resource (audience)", async () => {
    const tokens = await issue({ resource: "https://other.example/api/mcp" });
    const response = await initialize(tokens.access_token);
    expect(response.status).toBe(401);
    expect((await response.json()) as object).toMatchObject({
      error: { message: expect.stringMatching(/another resource/) },
    });
  });

  it("an expired access token", async () => {
    const tokens = await issue({ hoursAgo: 2 });
    expect((await initialize(tokens.access_token)).status).toBe(401);
  });

  it("a token without the mcp scope, with an insufficient_scope challenge to step up", async () => {
    const tokens = await issue({ scopes: ["search"] });
    const response = await initialize(tokens.access_token);
    expect(response.status).toBe(403);
    const challenge = response.headers.get("www-authenticate") ?? "";
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="search mcp"');
    expect(challenge).toContain("resource_metadata=");
  });

  it("a failed client authentication (401, Basic challenge), an unknown grant type, a missing code", async () => {
    const registered = await post("/api/oauth/register", {
      client_name: "Confidential",
      redirect_uris: [REDIRECT],
    });
    expect(registered.status).toBe(201);
    const { client_id } = (await registered.json()) as { client_id: string };
    const wrongSecret = `Basic ${Buffer.from(`${client_id}:smcs_wrong`).toString("base64")}`;
    const denied = await post("/api/oauth/token", "grant_type=authorization_code&code=x", {
      authorization: wrongSecret,
    });
    expect(denied.status).toBe(401);
    expect(denied.headers.get("www-authenticate")).toBe('Basic realm="searchmux"');
    expect(await denied.json()).toMatchObject({ error: "invalid_client" });
    const password = await post("/api/oauth/token", "grant_type=password&username=a&password=b");
    expect(await password.json()).toMatchObject({ error: "unsupported_grant_type" });
    const repeated = await post("/api/oauth/token", "grant_type=refresh_token&grant_type=refresh_token");
    expect(await repeated.json()).toMatchObject({ error: "invalid_request" });
  });

  it("a registration with an unregistrable redirect URI", async () => {
    const response = await post("/api/oauth/register", { redirect_uris: ["http://evil.example/cb"] });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: "invalid_redirect_uri" });
  });
});

describe("a request refused before consent (RFC 9700 §4.11.2: no redirect the member did not ask for)", () => {
  const LANDING = "https://refused.example/oauth/callback";
  let clientId = "";

  beforeAll(async () => {
    const registered = await post("/api/oauth/register", {
      client_name: "Refused client",
      redirect_uris: [LANDING],
      token_endpoint_auth_method: "none",
    });
    expect(registered.status).toBe(201);
    clientId = ((await registered.json()) as { client_id: string }).client_id;
  });

  /**
   * The authorization request with `params` as the browser meets it: the authorize endpoint's answer,
   * what the consent page decides for the signed-in member, and the refusal as the page renders it.
   */
  async function refusedAtConsent(params: Record<string, string>) {
    const { consentRequest } = await import("@/lib/api/oauth/authorization");
    const { RefusedRequest } = await import("@/components/oauth/refused-request");
    const { systemContext } = await import("@/lib/pipeline/platform");
    const authorize = new URL(`${ORIGIN}/api/oauth/authorize?${new URLSearchParams(params)}`);
    const forwarded = await appFetch(authorize.toString(), { method: "GET" });
    expect(forwarded.status).toBe(302);
    const consentPage = new URL(forwarded.headers.get("location") ?? "", ORIGIN);
    expect(consentPage.origin + consentPage.pathname).toBe(`${ORIGIN}/oauth/consent`);
    const consent = await consentRequest(await systemContext({ kind: "user", userId }), {
      query: consentPage.search,
      issuer: ORIGIN,
      resources: [MCP_URL],
    });
    if (!("refused" in consent)) throw new Error("the consent page would ask for consent");
    return { refused: consent.refused, html: renderToStaticMarkup(createElement(RefusedRequest, consent)) };
  }

  /** The href of the link named `name` in `html`, or undefined. */
  function linkTo(html: string, name: string): string | undefined {
    for (const [, attributes, text] of html.matchAll(/<a ([^>]*)>(.*?)<\/a>/g)) {
      const href = /href="([^"]*)"/.exec(attributes ?? "")?.[1];
      if (text === name && href) return href.replaceAll("&amp;", "&");
    }
    return undefined;
  }

  const valid = () => ({
    response_type: "code",
    client_id: clientId,
    redirect_uri: LANDING,
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
    state: "refused-state",
  });

  it.each([
    ["a token response type", { response_type: "token" }, "unsupported_response_type"],
    ["no PKCE", { code_challenge: "" }, "invalid_request"],
    ["plain PKCE", { code_challenge_method: "plain" }, "invalid_request"],
    ["another resource", { resource: "https://other.example/mcp" }, "invalid_target"],
  ])("%s: a page that names the client's host and links the error back", async (_, overrides, error) => {
    const { refused, html } = await refusedAtConsent({ ...valid(), ...overrides });
    expect(refused.error.code).toBe(error);
    expect(refused.returnTo?.host).toBe("refused.example");
    expect(html).toContain('data-testid="redirect-host">refused.example</strong>');
    expect(html).toContain(`<code>${error}</code>`);
    const href = linkTo(html, "Return to refused.example");
    expect(href).toBe(refused.returnTo?.url);
    const answer = new URL(href ?? "");
    expect(`${answer.origin}${answer.pathname}`).toBe(LANDING);
    expect(Object.fromEntries(answer.searchParams)).toEqual({
      error,
      error_description: refused.error.message,
      state: "refused-state",
      iss: ORIGIN,
    });
  });

  it("an unregistered redirect URI or an unknown client: the error alone, no link to anywhere", async () => {
    for (const overrides of [
      { redirect_uri: "https://attacker.example/steal" },
      { client_id: "smxc_nobody" },
    ]) {
      const { refused, html } = await refusedAtConsent({ ...valid(), ...overrides });
      expect(refused.returnTo).toBeUndefined();
      expect(html).not.toContain("Return to");
      expect(html).not.toMatch(/href="https?:/);
    }
  });
});
