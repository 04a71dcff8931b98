/**
 * A connected app's access token is bound to the resource it was issued for (RFC 8707; MCP authorization:
 * a server validates that a token was issued for it) and never holds `admin` (scorecard O1). Issued for
 * `<AUTH_URL>/api/mcp`, it works on the MCP endpoint and is refused by every other token route, so it can
 * create, rotate or revoke nothing that would outlive its grant; `admin` is neither offered nor granted,
 * and a grant approved with it before (its token rows still say so) verifies without it.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Scope } from "@/lib/pipeline/context";
import { appFetch } from "@/tests/support/app-routes";
import { authorizationParams, pkce } from "@/tests/support/oauth";
import { inProcessApp, ownedWorkspace } from "@/tests/support/route-handlers";

const ORIGIN = "http://localhost:4319";
const MCP_URL = `${ORIGIN}/api/mcp`;
const REDIRECT = "http://127.0.0.1:8977/callback";
const app = inProcessApp("oauth-audience");
let userId = "";
let tenantId = "";

/** Runs the whole authorization through the verbs for a fresh public client: the token response. */
async function connectApp(scopes: Scope[]) {
  const { registerClient } = await import("@/lib/services/oauth/register-client");
  const { approveAuthorization } = await import("@/lib/services/oauth/approve-authorization");
  const { authenticateClient } = await import("@/lib/services/oauth/authenticate-client");
  const { exchangeCode } = await import("@/lib/services/oauth/exchange-code");
  const { platform, systemContext } = await import("@/lib/pipeline/platform");
  const ctx = await platform();
  const registered = await registerClient({
    ctx,
    input: { metadata: { redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" }, address: null },
  });
  const pair = pkce();
  const approved = await approveAuthorization({
    ctx: await systemContext({ kind: "user", userId }),
    input: {
      params: authorizationParams(registered.client_id, REDIRECT, pair.challenge, {
        scope: scopes.join(" "),
      }),
      resources: [MCP_URL],
      tenantId,
      scopes,
    },
  });
  if (!("code" in approved)) throw new Error(approved.refused.message);
  const client = await authenticateClient({
    ctx,
    input: { clientId: registered.client_id, clientSecret: undefined },
  });
  const exchange = {
    code: approved.code,
    codeVerifier: pair.verifier,
    redirectUri: REDIRECT,
    resource: MCP_URL,
  };
  return { ...(await exchangeCode({ ctx, input: { client, exchange } })), clientId: client.id };
}

const mcpInitialize = (token: string) =>
  appFetch(MCP_URL, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "app", version: "1" } },
    }),
  });

/** Every token-authenticated route of the OpenAPI document but MCP's, its path parameters filled in. */
async function restOperations() {
  const { OPERATIONS } = await import("@/lib/api/openapi");
  return OPERATIONS.filter((op) => op.scope !== null && op.path !== "/api/mcp").map((op) => ({
    method: op.method.toUpperCase(),
    path: op.path.replace(/\{\w+\}/g, randomUUID()),
  }));
}

/** Live tokens of the workspace: the standing ones people create (no grant), and those of connected apps. */
async function liveTokens() {
  const { getDatabase } = await import("@/lib/db");
  const { apiTokens } = await import("@/lib/db/schema");
  const { isNull } = await import("drizzle-orm");
  const db = await getDatabase();
  const rows = await db.withTenant(tenantId, (tx) =>
    tx.select({ grantId: apiTokens.grantId }).from(apiTokens).where(isNull(apiTokens.revokedAt)),
  );
  return {
    standing: rows.filter((row) => !row.grantId).length,
    ofApps: rows.filter((row) => row.grantId).length,
  };
}

beforeAll(async () => {
  await app.start({ AUTH_URL: ORIGIN });
  ({ userId, tenantId } = await ownedWorkspace("audience@searchmux.test", "audience"));
});
afterAll(() => app.stop());

describe("an access token issued for the MCP resource", () => {
  it("works on the MCP endpoint and is refused by every REST and compatibility route, naming its audience", async () => {
    const tokens = await connectApp(["mcp", "search", "fetch", "answer", "papers"]);
    expect((await mcpInitialize(tokens.access_token)).status).toBe(200);

    const operations = await restOperations();
    expect(operations.map((op) => `${op.method} ${op.path}`)).toEqual(
      expect.arrayContaining([
        "POST /api/v1/tokens",
        "PUT /api/v1/keys",
        "GET /api/researcher",
        "POST /api/search",
      ]),
    );
    for (const { method, path } of operations) {
      const response = await appFetch(`${ORIGIN}${path}`, {
        method,
        headers: { authorization: `Bearer ${tokens.access_token}`, "content-type": "application/json" },
        body:
          method === "GET" || method === "DELETE"
            ? undefined
            : JSON.stringify({ query: "otters", name: "x" }),
      });
      expect({ route: `${method} ${path}`, status: response.status }).toEqual({
        route: `${method} ${path}`,
        status: 401,
      });
      expect(response.headers.get("www-authenticate")).toContain('error="invalid_token"');
      const body = (await response.json()) as { error: { message: string } };
      expect(body.error.message).toContain(MCP_URL);
    }
    // The GPT-Researcher form, which takes the token in the query string, is refused alike.
    const researcher = await appFetch(`${ORIGIN}/api/researcher?query=otters&api_key=${tokens.access_token}`);
    expect(researcher.status).toBe(401);
  });
});

describe("admin over OAuth", () => {
  it("is neither offered in the server's metadata nor granted when asked for", async () => {
    const metadata = (await (await appFetch(`${ORIGIN}/.well-known/oauth-authorization-server`)).json()) as {
      scopes_supported: string[];
    };
    expect(metadata.scopes_supported).not.toContain("admin");
    expect(metadata.scopes_supported).toContain("mcp");

    const tokens = await connectApp(["mcp", "search", "admin"]);
    expect(tokens.scope.split(" ").sort()).toEqual(["mcp", "search"]);
  });

  it("is dropped from a grant approved with it before: its token mints nothing, and nothing outlives the revoked grant", async () => {
    const tokens = await connectApp(["mcp", "search"]);
    // What a grant approved before admin was withheld from apps looks like in the database.
    const { getDatabase } = await import("@/lib/db");
    const { apiTokens, oauthGrants } = await import("@/lib/db/schema");
    const { isNotNull } = await import("drizzle-orm");
    const db = await getDatabase();
    await db.withTenant(tenantId, async (tx) => {
      await tx
        .update(apiTokens)
        .set({ scopes: ["mcp", "search", "admin"] })
        .where(isNotNull(apiTokens.grantId));
      await tx.update(oauthGrants).set({ scopes: ["mcp", "search", "admin"] });
    });

    const { platform } = await import("@/lib/pipeline/platform");
    const { verifyToken } = await import("@/lib/services/tokens/verify-token");
    const verified = await verifyToken({ ctx: await platform(), input: { token: tokens.access_token } });
    expect(verified?.scopes).toEqual(["mcp", "search"]);

    expect((await liveTokens()).standing).toBe(0);
    for (const [method, body] of [
      ["POST", { name: "standing" }],
      ["DELETE", undefined],
    ] as const) {
      const response = await appFetch(
        `${ORIGIN}/api/v1/tokens${method === "DELETE" ? `?id=${randomUUID()}` : ""}`,
        {
          method,
          headers: { authorization: `Bearer ${tokens.access_token}`, "content-type": "application/json" },
          body: body && JSON.stringify(body),
        },
      );
      expect(response.status).toBe(401);
    }
    expect((await liveTokens()).standing).toBe(0);

    // Refreshing the old grant yields a token without admin too.
    const { authenticateClient } = await import("@/lib/services/oauth/authenticate-client");
    const { refreshTokens } = await import("@/lib/services/oauth/refresh-tokens");
    const ctx = await platform();
    const client = await authenticateClient({
      ctx,
      input: { clientId: tokens.clientId, clientSecret: undefined },
    });
    const refreshed = await refreshTokens({
      ctx,
      input: { client, refresh: { refreshToken: tokens.refresh_token, scope: undefined, resource: MCP_URL } },
    });
    expect(refreshed.scope.split(" ")).not.toContain("admin");

    const appTokensBefore = (await liveTokens()).ofApps;
    const revoke = await appFetch(`${ORIGIN}/api/oauth/revoke`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: refreshed.refresh_token, client_id: client.id }).toString(),
    });
    expect(revoke.status).toBe(200);
    expect((await mcpInitialize(refreshed.access_token)).status).toBe(401);
    const after = await liveTokens();
    expect(after.standing).toBe(0);
    expect(after.ofApps).toBeLessThan(appTokensBefore);
  });
});
