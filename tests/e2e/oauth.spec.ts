/**
 * MCP authorization end to end (#17) against `next build && next start`: the official SDK client knows
 * only the MCP URL. From a bare 401 it discovers the authorization server and registers (Dynamic Client
 * Registration, or a Client ID Metadata Document on the client's own HTTPS site); the browser (Chromium)
 * signs in and approves on the consent page; the SDK exchanges the code, lists tools and runs web_search
 * with the issued token, refreshes it, and a reused refresh token revokes the grant. A connected app is
 * disconnected from the Connect page, after which its next call gets 401. A denial returns access_denied.
 * A request that cannot go on is shown, never followed: with no way back when its redirect URI is not the
 * client's, and with a link back (the OAuth error) the member has to click when only the request is wrong.
 */
import { auth, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Page } from "@playwright/test";
import {
  type ClientDocumentSite,
  clientDocument,
  startClientDocumentSite,
} from "@/tests/support/client-documents";
import { loopbackClientMetadata, MemoryOAuthClientProvider } from "@/tests/support/oauth-client-provider";
import { CLIENT_SITE_ADDRESS, clientSiteFiles } from "./support/client-site";
import { screenshot, signInAsDeveloper } from "./support/dashboard";
import { BASE_URL } from "./support/e2e-server";
import { fakeRequests } from "./support/fake-providers";
import { initializeRequest, MCP_URL, postRaw } from "./support/mcp";
import { expect, test } from "./support/test";

test.describe.configure({ mode: "serial" });

/** The native client's loopback callback; the browser's visit there is answered by the page's route. */
const REDIRECT = "http://127.0.0.1:8976/callback";

let site: ClientDocumentSite;
test.beforeAll(async () => {
  site = await startClientDocumentSite(clientSiteFiles().tls(), CLIENT_SITE_ADDRESS);
});
test.afterAll(async () => {
  await site?.close();
});

/**
 * The browser's part: open the authorization URL, sign in when asked, check what the consent page says,
 * approve or deny; answers the callback URL the browser was sent to.
 */
async function browserConsent(page: Page, authorizationUrl: URL, decision: "Approve" | "Deny"): Promise<URL> {
  let callback: URL | undefined;
  await page.route(`${REDIRECT}**`, (route) => {
    callback = new URL(route.request().url());
    return route.fulfill({ status: 200, contentType: "text/plain", body: "You may close this window." });
  });
  await page.goto(authorizationUrl.toString());
  if (new URL(page.url()).pathname === "/signin") {
    await page.getByRole("button", { name: "Development sign-in" }).click();
  }
  await expect(page).toHaveURL(/\/oauth\/consent\?/);
  await expect(page.getByRole("heading", { name: /^Connect .+ to Searchmux\?$/ })).toBeVisible();
  await expect(page.getByTestId("redirect-host")).toHaveText("127.0.0.1:8976");
  // Every sentence starts with a capital, published by a metadata document's host or not.
  await expect(
    page.getByText(
      /on your behalf\. (It is published by \S+\. )?After you answer, you return to 127\.0\.0\.1:8976\.$/,
    ),
  ).toBeVisible();
  await expect(page.getByText("The answer goes to an application on this computer")).toBeVisible();
  await page.getByRole("button", { name: decision }).click();
  await expect.poll(() => callback?.href).toBeTruthy();
  await page.unroute(`${REDIRECT}**`);
  if (!callback) throw new Error("the browser never reached the callback");
  return callback;
}

/** An SDK client that signed in through the browser, with its provider (tokens and client information). */
async function signIn(page: Page, provider: MemoryOAuthClientProvider) {
  const transport = new StreamableHTTPClientTransport(new URL(MCP_URL), { authProvider: provider });
  await expect(new Client({ name: "e2e", version: "1" }).connect(transport)).rejects.toBeInstanceOf(
    UnauthorizedError,
  );
  if (!provider.authorizationUrl) throw new Error("the SDK started no authorization");
  const callback = await browserConsent(page, provider.authorizationUrl, "Approve");
  expect(callback.searchParams.get("iss")).toBe(BASE_URL);
  expect(callback.searchParams.get("state")).toBe("sdk-state");
  await transport.finishAuth(callback.searchParams.get("code") ?? "");
  const client = new Client({ name: "e2e", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(MCP_URL), { authProvider: provider }));
  return client;
}

const bearer = (provider: MemoryOAuthClientProvider) => ({
  authorization: `Bearer ${provider.tokens()?.access_token ?? ""}`,
});
const initializeWith = (provider: MemoryOAuthClientProvider) =>
  postRaw(initializeRequest("2025-11-25"), bearer(provider));

test("a client that knows only the URL registers, signs in through the browser, searches and refreshes", async ({
  page,
}) => {
  const bare = await postRaw(initializeRequest("2025-11-25"), { "x-forwarded-for": "203.0.113.91" });
  expect(bare.status).toBe(401);
  expect(bare.headers.get("www-authenticate")).toContain(
    `resource_metadata="${BASE_URL}/.well-known/oauth-protected-resource/api/mcp"`,
  );

  const provider = new MemoryOAuthClientProvider(
    REDIRECT,
    loopbackClientMetadata(REDIRECT, "E2E native client"),
  );
  const client = await signIn(page, provider);
  expect(provider.clientInformation()?.client_id).toMatch(/^smxc_/);
  const tools = (await client.listTools()).tools.map((tool) => tool.name);
  expect(tools).toEqual(
    expect.arrayContaining(["web_search", "fetch", "answer", "paper_search", "budget_status"]),
  );

  const calledBefore = (await fakeRequests("duckduckgo")).length;
  const search = await client.callTool({ name: "web_search", arguments: { query: "oauth e2e" } });
  expect(JSON.stringify(search.content)).toMatch(/web_search|results/);
  expect((await fakeRequests("duckduckgo")).length).toBeGreaterThan(calledBefore);
  await client.close();

  const rotated = provider.tokens()?.refresh_token ?? "";
  expect(await auth(provider, { serverUrl: MCP_URL })).toBe("AUTHORIZED");
  expect(provider.tokens()?.refresh_token).not.toBe(rotated);
  expect((await initializeWith(provider)).status).toBe(200);

  const reuse = await fetch(`${BASE_URL}/api/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "refresh_token",
      refresh_token: rotated,
      client_id: provider.clientInformation()?.client_id ?? "",
    }),
  });
  expect(reuse.status).toBe(400);
  expect(await reuse.json()).toMatchObject({ error: "invalid_grant" });
  expect((await initializeWith(provider)).status).toBe(401);
});

test("a client known by its metadata document connects, and is disconnected from the Connect page", async ({
  page,
}) => {
  const documentUrl = site.serve("/e2e-client.json", (self) => ({
    body: clientDocument(self, [REDIRECT], { client_name: "E2E document client" }),
  }));
  const provider = new MemoryOAuthClientProvider(
    REDIRECT,
    loopbackClientMetadata(REDIRECT, "E2E document client"),
    documentUrl,
  );
  const client = await signIn(page, provider);
  expect(provider.clientInformation()?.client_id).toBe(documentUrl);
  expect(site.hits("/e2e-client.json")).toBeGreaterThan(0);
  expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  await client.close();

  await page.goto("/dashboard/connect");
  const row = page.getByTestId("connected-app-row").filter({ hasText: "E2E document client" });
  await expect(row).toContainText("mcp");
  await row.getByRole("button", { name: "Disconnect E2E document client" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Disconnect" }).click();
  await expect(row).toHaveCount(0);
  const refused = await initializeWith(provider);
  expect(refused.status).toBe(401);
  expect(refused.headers.get("www-authenticate")).toContain('error="invalid_token"');
});

test("denying the request sends the client access_denied with its state and the issuer", async ({ page }) => {
  await signInAsDeveloper(page);
  const provider = new MemoryOAuthClientProvider(
    REDIRECT,
    loopbackClientMetadata(REDIRECT, "E2E denied client"),
  );
  await expect(
    new Client({ name: "e2e", version: "1" }).connect(
      new StreamableHTTPClientTransport(new URL(MCP_URL), { authProvider: provider }),
    ),
  ).rejects.toBeInstanceOf(UnauthorizedError);
  if (!provider.authorizationUrl) throw new Error("the SDK started no authorization");
  const callback = await browserConsent(page, provider.authorizationUrl, "Deny");
  expect(Object.fromEntries(callback.searchParams)).toMatchObject({
    error: "access_denied",
    state: "sdk-state",
    iss: BASE_URL,
  });
});

/** Registers a client (RFC 7591) with `redirectUris`, as anyone may: its client_id. */
async function registerClient(name: string, redirectUris: string[]): Promise<string> {
  const registered = await fetch(`${BASE_URL}/api/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: name,
      redirect_uris: redirectUris,
      token_endpoint_auth_method: "none",
    }),
  });
  expect(registered.status).toBe(201);
  return ((await registered.json()) as { client_id: string }).client_id;
}

/** An authorization request of `clientId` to `redirectUri` (S256), with `overrides` on top. */
function authorizationUrl(
  clientId: string,
  redirectUri: string,
  overrides: Record<string, string> = {},
): URL {
  const authorize = new URL(`${BASE_URL}/api/oauth/authorize`);
  for (const [name, value] of Object.entries({
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
    code_challenge_method: "S256",
    ...overrides,
  })) {
    authorize.searchParams.set(name, value);
  }
  return authorize;
}

test("a redirect URI the client did not register is explained, never followed", async ({ page }) => {
  await signInAsDeveloper(page);
  const clientId = await registerClient("E2E strict client", [REDIRECT]);
  const response = await page.goto(authorizationUrl(clientId, "https://attacker.example/steal").toString());
  await expect(page.getByRole("heading", { name: "This sign-in request cannot be completed" })).toBeVisible();
  // The consent page is never framed.
  expect(response?.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(response?.headers()["x-frame-options"]).toBe("DENY");
  await expect(page.getByText("redirect_uri is not one the client registered")).toBeVisible();
  expect(new URL(page.url()).host).toBe(new URL(BASE_URL).host);
  await expect(page.getByRole("link", { name: /^Return to/ })).toHaveCount(0);
});

test("a request refused before consent is shown with a link back to the client, followed only when clicked", async ({
  page,
}) => {
  await signInAsDeveloper(page);
  // Open registration takes any HTTPS redirect URI, so this one is as anyone's: RFC 9700 §4.11.2.
  const landing = "https://refused-client.example/oauth/callback";
  const clientId = await registerClient("E2E refused client", [landing]);
  // Every request for the client's site, redirects included (a route sees none of those).
  const reached: URL[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.host === "refused-client.example") reached.push(url);
  });
  await page.route("https://refused-client.example/**", (route) =>
    route.fulfill({ status: 200, contentType: "text/plain", body: "The client's page." }),
  );

  await page.goto(
    authorizationUrl(clientId, landing, { response_type: "token", state: "e2e-refused" }).toString(),
  );
  await expect(page.getByRole("heading", { name: "This sign-in request cannot be completed" })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/oauth/consent");
  expect(reached).toEqual([]);
  await expect(page.getByText("response_type must be 'code'")).toBeVisible();
  await expect(page.getByText("unsupported_response_type")).toBeVisible();
  await expect(page.getByTestId("redirect-host")).toHaveText("refused-client.example");
  await screenshot(page, "oauth-refused-request");

  const back = page.getByRole("link", { name: "Return to refused-client.example" });
  await back.focus();
  await expect(back).toBeFocused();
  await page.keyboard.press("Enter");
  await expect.poll(() => reached.length).toBe(1);
  const [answer] = reached;
  expect(`${answer?.origin}${answer?.pathname}`).toBe(landing);
  expect(Object.fromEntries(answer?.searchParams ?? [])).toEqual({
    error: "unsupported_response_type",
    error_description: "response_type must be 'code'",
    state: "e2e-refused",
    iss: BASE_URL,
  });
});
