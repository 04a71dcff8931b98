/**
 * Who may make the authorization server fetch or store a client, over HTTP, in process, on a deployment
 * behind one trusted proxy (SEARCHMUX_TRUSTED_PROXIES=1) with a public name. O2: anonymous token and
 * revocation requests naming Client ID Metadata Document URLs fetch nothing, store nothing, and learn
 * nothing but `invalid_client`; the documents are served by a real HTTPS site on 127.0.0.1 (allowlisted,
 * certificates unchecked in this process), so a fetch would reach it and be counted. Registration: one
 * bucket per client address, and without an address the documented refusal.
 */
import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalCa, type LocalCa } from "@/tests/reliability/support/local-ca";
import { appFetch } from "@/tests/support/app-routes";
import {
  type ClientDocumentSite,
  clientDocument,
  startClientDocumentSite,
} from "@/tests/support/client-documents";
import { inProcessApp } from "@/tests/support/route-handlers";

const ORIGIN = "https://searchmux.example";
const REDIRECT = "http://127.0.0.1:8976/callback";
const app = inProcessApp("oauth-clients");
const previousTlsSetting = process.env.NODE_TLS_REJECT_UNAUTHORIZED;
let site: ClientDocumentSite;
let ca: LocalCa;

const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  appFetch(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body,
  });
const register = (headers: Record<string, string> = {}) =>
  post(
    "/api/oauth/register",
    JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: "none" }),
    {
      "content-type": "application/json",
      ...headers,
    },
  );

beforeAll(async () => {
  process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0";
  ca = createLocalCa();
  site = await startClientDocumentSite(ca);
  await app.start({
    AUTH_URL: ORIGIN,
    SEARCHMUX_TRUSTED_PROXIES: "1",
    SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1",
  });
});
afterAll(async () => {
  if (previousTlsSetting === undefined) delete process.env.NODE_TLS_REJECT_UNAUTHORIZED;
  else process.env.NODE_TLS_REJECT_UNAUTHORIZED = previousTlsSetting;
  await site?.close();
  ca?.remove();
  await app.stop();
});

describe("O2: the token and revocation endpoints never fetch a client", () => {
  it("answers 20 parallel anonymous token and revocation requests with URL client_ids: no fetch, nothing stored, a generic invalid_client", async () => {
    const paths = Array.from({ length: 20 }, (_, i) => `/client-${i}.json`);
    const urls = paths.map((path) =>
      site.serve(path, (self) => ({
        body: clientDocument(self, [REDIRECT]),
        headers: { "cache-control": "max-age=60" },
      })),
    );
    const responses = await Promise.all(
      urls.flatMap((clientId, i) => [
        post(
          "/api/oauth/token",
          new URLSearchParams(
            i % 2 === 0
              ? {
                  grant_type: "authorization_code",
                  code: "smc_guess",
                  code_verifier: "v".repeat(43),
                  client_id: clientId,
                }
              : { grant_type: "refresh_token", refresh_token: "smr_guess", client_id: clientId },
          ).toString(),
        ),
        post(
          "/api/oauth/revoke",
          new URLSearchParams({ token: "smr_guess", client_id: clientId }).toString(),
        ),
      ]),
    );
    expect(paths.map((path) => site.hits(path))).toEqual(paths.map(() => 0));

    const { getDatabase } = await import("@/lib/db");
    const { oauthClients } = await import("@/lib/db/schema");
    const db = await getDatabase();
    const stored = await db.withSystem((tx) =>
      tx.select({ id: oauthClients.id }).from(oauthClients).where(inArray(oauthClients.id, urls)),
    );
    expect(stored).toEqual([]);

    const { CLIENT_AUTHENTICATION_FAILED } = await import("@/lib/services/oauth/authenticate-client");
    for (const response of responses) {
      // A revocation the server accepted answers 200 with no body.
      const text = await response.text();
      expect({ status: response.status, body: text && JSON.parse(text) }).toEqual({
        status: 401,
        body: { error: "invalid_client", error_description: CLIENT_AUTHENTICATION_FAILED },
      });
    }
  });
});

describe("registration behind a trusted proxy", () => {
  const from = (address: string) => ({ "x-forwarded-for": `192.0.2.1, ${address}` });

  it("holds each client address to its own bucket: one caller over it does not stop another", async () => {
    const { REGISTRATIONS_PER_ADDRESS_HOUR } = await import("@/lib/services/oauth/policy");
    for (let i = 0; i < REGISTRATIONS_PER_ADDRESS_HOUR; i++) {
      expect((await register(from("198.51.100.10"))).status).toBe(201);
    }
    const over = await register(from("198.51.100.10"));
    expect(over.status).toBe(429);
    expect(await over.json()).toMatchObject({ error: "temporarily_unavailable" });
    // The forged entry left of the proxy's is the caller's own to write: it changes nothing.
    expect((await register({ "x-forwarded-for": "198.51.100.11, 198.51.100.10" })).status).toBe(429);
    expect((await register(from("198.51.100.12"))).status).toBe(201);
  });

  it("refuses a caller whose address is unknown, saying why and what to use instead", async () => {
    const { REGISTRATION_NEEDS_ADDRESS } = await import("@/lib/services/oauth/register-client");
    const response = await register();
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      error: "access_denied",
      error_description: REGISTRATION_NEEDS_ADDRESS,
    });
    expect(REGISTRATION_NEEDS_ADDRESS).toMatch(/SEARCHMUX_TRUSTED_PROXIES/);
    expect(REGISTRATION_NEEDS_ADDRESS).toMatch(/Client ID Metadata Document/);
  });
});
