/**
 * DNS rebinding through the real MCP route handlers, with AUTH_URL and SEARCHMUX_ALLOWED_HOSTS unset (a
 * local server): a request for a name other than the loopback ones is refused with 403 before its token
 * is looked at, while localhost, 127.0.0.1 and [::1] on any port are served.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  callRoute,
  inProcessApp,
  newToken,
  operatorWorkspace,
  type RouteHandler,
  routeRequest,
} from "@/tests/support/route-handlers";

const app = inProcessApp("mcp-host");

let headerRoute: RouteHandler<Record<string, never>>;
let urlRoute: RouteHandler<{ token: string }>;
let token: string;

const INITIALIZE = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "host-guard", version: "1" },
  },
});

function initialize(host: string, { inUrl = false, origin }: { inUrl?: boolean; origin?: string } = {}) {
  const headers: Record<string, string> = { host, accept: "application/json, text/event-stream" };
  if (origin) headers.origin = origin;
  const url = `http://${host}/api/mcp${inUrl ? `/t/${token}` : ""}`;
  const request = routeRequest(url, {
    method: "POST",
    token: inUrl ? null : token,
    headers,
    body: INITIALIZE,
  });
  return inUrl ? callRoute(urlRoute, request, { token }) : callRoute(headerRoute, request, {});
}

beforeAll(async () => {
  await app.start({ AUTH_URL: "", SEARCHMUX_ALLOWED_HOSTS: "" });
  headerRoute = (await import("@/app/api/mcp/route")).POST;
  urlRoute = (await import("@/app/api/mcp/t/[token]/route")).POST;
  const ctx = await operatorWorkspace("mcp-host", "mcp");
  token = await newToken(ctx, { name: "mcp", scopes: ["mcp"] });
});

afterAll(() => app.stop());

describe("MCP without AUTH_URL", () => {
  it.each([
    ["evil.example:3000", false],
    ["evil.example:3000", true],
    ["evil.example", false],
    ["localhost.evil.example:3000", false],
    ["192.0.2.2:3000", false],
  ])("refuses Host %s (token in URL: %s) with 403 before the token is checked", async (host, inUrl) => {
    const response = await initialize(host, { inUrl });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      error: {
        code: "forbidden",
        message: expect.stringMatching(new RegExp(`^requests for host '${host}' are not served here; `)),
      },
    });
  });

  it("refuses a rebound page even when it sends its own (matching) Origin", async () => {
    const response = await initialize("evil.example:3000", { origin: "http://evil.example:3000" });
    expect(response.status).toBe(403);
  });

  it.each([
    ["localhost:3000", false],
    ["127.0.0.1:4100", false],
    ["[::1]:3000", true],
  ])("serves the loopback Host %s (token in URL: %s)", async (host, inUrl) => {
    const response = await initialize(host, { inUrl });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('"serverInfo"');
  });
});
