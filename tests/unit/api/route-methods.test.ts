/**
 * Every /api path answers `{error: {code, message}}`: a method a route does not serve is a JSON 405 with
 * `Allow` (Next.js alone answers an empty 405), a path no route serves a JSON 404 (Next.js alone answers
 * its HTML page). Checked on every route file, through the routing tests/support/app-routes.ts mirrors.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROUTE_METHODS, routeMethods } from "@/lib/api/route-methods";
import { appRoute, routeFileFor, serveRequest } from "@/tests/support/app-routes";

const EXPORTS = [...ROUTE_METHODS, "OPTIONS"] as const;
/** Methods MCP answers itself, with a JSON-RPC error (the Streamable HTTP spec's 405 for GET and DELETE). */
const MCP_OWN = new Set([
  "GET /api/mcp",
  "DELETE /api/mcp",
  "GET /api/mcp/t/[token]",
  "DELETE /api/mcp/t/[token]",
]);

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

/** A concrete path the route file serves: each dynamic segment filled in ([tool] with a tool's). */
const concretePath = (template: string) =>
  template
    .replace("[tool]", "search")
    .replace(/\[\[\.{3}\w+\]\]|\[\.{3}\w+\]/, "some/where")
    .replace(/\[\w+\]/g, "x0");

const ROUTES = routeFiles("app/api").map((file) => {
  const template = `/${path.relative("app", path.dirname(file))}`;
  return { template, pathname: concretePath(template) };
});

const request = (method: string, pathname: string) => new Request(`http://localhost${pathname}`, { method });

const send = (method: (typeof EXPORTS)[number], pathname: string) => serveRequest(request(method, pathname));

async function allowed(pathname: string): Promise<string[]> {
  const allow = (await send("OPTIONS", pathname)).headers.get("allow") ?? "";
  return allow.split(", ").filter((method) => method !== "OPTIONS" && method !== "HEAD");
}

const served = routeMethods({ GET: async (_request: Request) => Response.json({ ok: true }) });

describe("routeMethods", () => {
  it("runs the handlers it is given", async () => {
    expect(await (await served.GET(request("GET", "/api/x"))).json()).toEqual({ ok: true });
  });

  it("answers the other methods 405 in JSON, with Allow as Next.js writes it", async () => {
    const response = await served.PATCH(request("PATCH", "/api/x"));
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect(await response.json()).toEqual({
      error: {
        code: "method_not_allowed",
        message: "PATCH is not allowed on /api/x; allowed: GET, HEAD, OPTIONS",
      },
    });
  });

  it("answers OPTIONS 204 with Allow", async () => {
    const response = await served.OPTIONS(request("OPTIONS", "/api/x"));
    expect({ status: response.status, allow: response.headers.get("allow") }).toEqual({
      status: 204,
      allow: "GET, HEAD, OPTIONS",
    });
  });
});

describe("every API route file", () => {
  it.each(ROUTES)(
    "$template exports every method, so Next.js answers none of them itself",
    async ({ pathname }) => {
      const { handlers } = await appRoute(pathname);
      expect(EXPORTS.filter((method) => typeof handlers[method] !== "function")).toEqual([]);
    },
  );

  it.each(ROUTES.filter(({ template }) => !template.includes("[[...")))(
    "$template answers a method it does not serve with a JSON 405 and Allow",
    async ({ template, pathname }) => {
      const served = await allowed(pathname);
      expect(served.length).toBeGreaterThan(0);
      for (const method of ROUTE_METHODS.filter((m) => !served.includes(m))) {
        const response = await send(method, pathname);
        const body = (await response.json()) as { error?: { code?: string; message?: string } };
        expect({ method, status: response.status, allow: response.headers.get("allow") }).toEqual({
          method,
          status: 405,
          allow: expect.stringContaining(served[0] ?? "?"),
        });
        if (!MCP_OWN.has(`${method} ${template}`)) {
          expect(body.error).toEqual({
            code: "method_not_allowed",
            message: expect.stringContaining(method),
          });
        }
      }
    },
  );
});

describe("paths no route serves", () => {
  it.each([
    ["/api/nope", "app/api/[[...path]]/route.ts"],
    ["/api", "app/api/[[...path]]/route.ts"],
    ["/api/v2/search", "app/api/[[...path]]/route.ts"],
    ["/api/v1/traces/x0/spans", "app/api/[[...path]]/route.ts"],
    ["/api/v1/nope", "app/api/v1/[tool]/route.ts"],
  ])("%s is a JSON 404 for every method (served by %s)", async (pathname, file) => {
    expect(routeFileFor(pathname)?.file).toBe(file);
    for (const method of EXPORTS) {
      const response = await send(method, pathname);
      expect({ method, status: response.status }).toEqual({ method, status: 404 });
      expect(await response.json()).toEqual({
        error: {
          code: "not_found",
          message: `no API route at ${pathname}; the API is described at /api/openapi.json`,
        },
      });
    }
  });

  it("leaves next-auth its own paths and the static routes their precedence", () => {
    expect(routeFileFor("/api/auth/session")?.file).toBe("app/api/auth/[...nextauth]/route.ts");
    expect(routeFileFor("/api/v1/budgets")?.file).toBe("app/api/v1/budgets/route.ts");
    expect(routeFileFor("/api/v1/usage/history")?.file).toBe("app/api/v1/usage/history/route.ts");
    expect(routeFileFor("/api/v1/usage")).toEqual({
      file: "app/api/v1/[tool]/route.ts",
      params: { tool: "usage" },
    });
  });

  it("answers a tool's path with the wrong method 405 naming the one it serves", async () => {
    const response = await send("GET", "/api/v1/search");
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("OPTIONS, POST");
    expect((await response.json()).error.message).toBe(
      "GET is not allowed on /api/v1/search; allowed: OPTIONS, POST",
    );
  });
});
