/**
 * MCP authorization (#17): clients known by a Client ID Metadata Document (the client_id is an HTTPS
 * URL). The document is fetched from a real HTTPS site on 127.0.0.1 (allowlisted like an operator's
 * internal host would be; this process skips certificate checks, which the end-to-end test makes against
 * a server trusting the site's authority) through the SSRF guard, within its size and time limits,
 * validated and cached; without the allowlist a private address is refused before any connection.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Platform } from "@/lib/pipeline/context";
import { checkAuthorizationRequest } from "@/lib/services/oauth/authorization-request";
import { OAuthError } from "@/lib/services/oauth/oauth-error";
import { CLIENT_DOCUMENT_MAX_BYTES } from "@/lib/services/oauth/policy";
import { resolveClient } from "@/lib/services/oauth/resolve-client";
import { createLocalCa, type LocalCa } from "@/tests/reliability/support/local-ca";
import {
  type ClientDocumentSite,
  clientDocument,
  startClientDocumentSite,
} from "@/tests/support/client-documents";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { authorizationParams, pkce } from "@/tests/support/oauth";
import { testPlatform } from "@/tests/support/platform";

const REDIRECT = "http://127.0.0.1:8976/callback";
const [pglite] = databaseTargets();

describe("Client ID Metadata Documents", () => {
  let t: TestDatabase;
  let site: ClientDocumentSite;
  let ca: LocalCa;
  let platform: Platform;
  let unlisted: Platform;
  const previousTlsSetting = process.env.NODE_TLS_REJECT_UNAUTHORIZED;

  beforeAll(async () => {
    if (!pglite) throw new Error("no database target");
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0";
    t = await pglite.create();
    ca = createLocalCa();
    site = await startClientDocumentSite(ca);
    platform = testPlatform(t.db, { env: { SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1" } });
    unlisted = testPlatform(t.db);
  });
  afterAll(async () => {
    if (previousTlsSetting === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
    else process.env.NODE_TLS_REJECT_UNAUTHORIZED = previousTlsSetting;
    await site?.close();
    ca?.remove();
    await t?.cleanup();
  });

  const resolve = (clientId: string, ctx: Platform = platform) => resolveClient({ ctx, input: { clientId } });
  async function refusal(clientId: string, ctx: Platform = platform): Promise<string> {
    const error = await resolve(clientId, ctx).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OAuthError);
    expect((error as OAuthError).code).toBe("invalid_client");
    return (error as OAuthError).message;
  }

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
    const later: Platform = { ...platform, now: () => new Date(Date.now() + 601_000) };
    await resolve(url, later);
    expect(site.hits("/good.json")).toBe(2);
  });

  it("checks authorization requests against the document's redirect URIs", async () => {
    const url = site.serve("/redirects.json", (self) => ({ body: clientDocument(self, [REDIRECT]) }));
    const check = (redirectUri: string) =>
      checkAuthorizationRequest({
        ctx: platform,
        input: {
          params: authorizationParams(url, redirectUri, pkce().challenge),
          resources: ["https://searchmux.test/api/mcp"],
        },
      });
    expect(await check(REDIRECT)).toHaveProperty("request");
    await expect(check("https://attacker.example/callback")).rejects.toThrow(/redirect_uri/);
  });

  it("refuses a document that names another client_id, or none", async () => {
    const other = site.serve("/other.json", {
      body: clientDocument("https://elsewhere.example/c.json", [REDIRECT]),
    });
    expect(await refusal(other)).toMatch(/does not name that URL/);
    const missing = site.serve("/no-id.json", { body: JSON.stringify({ redirect_uris: [REDIRECT] }) });
    expect(await refusal(missing)).toMatch(/does not name that URL/);
  });

  it("refuses a document with a shared secret, bad JSON, or an error status", async () => {
    const secret = site.serve("/secret.json", (self) => ({
      body: clientDocument(self, [REDIRECT], { token_endpoint_auth_method: "client_secret_basic" }),
    }));
    expect(await refusal(secret)).toMatch(/token_endpoint_auth_method 'none'/);
    expect(await refusal(site.serve("/broken.json", { body: "{not json" }))).toMatch(/not JSON/);
    expect(await refusal(site.serve("/gone.json", { status: 410, body: "{}" }))).toMatch(/HTTP 410/);
  });

  it("refuses an oversized document", async () => {
    const url = site.serve("/large.json", (self) => ({
      body: clientDocument(self, [REDIRECT], { padding: "x".repeat(CLIENT_DOCUMENT_MAX_BYTES) }),
    }));
    expect(await refusal(url)).toMatch(/exceeded \d+ bytes/);
  });

  it("refuses a document slower than its time limit", async () => {
    const url = site.serve("/slow.json", (self) => ({
      body: clientDocument(self, [REDIRECT]),
      delayMs: 8_000,
    }));
    const started = Date.now();
    expect(await refusal(url)).toMatch(/could not be fetched/);
    expect(Date.now() - started).toBeLessThan(7_000);
  });

  it("refuses a redirect to the document", async () => {
    const target = site.serve("/target.json", (self) => ({ body: clientDocument(self, [REDIRECT]) }));
    const url = site.serve("/moved.json", { status: 302, body: "", headers: { location: target } });
    expect(await refusal(url)).toMatch(/redirects/);
  });

  it("refuses a private address the operator did not allow, before connecting", async () => {
    const url = site.serve("/private.json", (self) => ({ body: clientDocument(self, [REDIRECT]) }));
    expect(await refusal(url, unlisted)).toMatch(/cannot be fetched/);
    expect(site.hits("/private.json")).toBe(0);
    expect(await refusal("https://localhost/client.json", unlisted)).toMatch(/cannot be fetched/);
    expect(await refusal("https://169.254.169.254/latest/meta-data", unlisted)).toMatch(/cannot be fetched/);
  });

  it("does not take an http URL, or one without a path, for a document", async () => {
    expect(await refusal(`http://127.0.0.1/client.json`)).toBe("unknown client_id");
    expect(await refusal(site.origin)).toBe("unknown client_id");
  });
});
