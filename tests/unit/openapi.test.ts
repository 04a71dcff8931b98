import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/api/openapi";

/** Routes outside the public API document, and why. */
const UNDOCUMENTED = new Map([
  ["/api/auth/{nextauth}", "next-auth's own sign-in routes"],
  ["/api/mcp/t/{token}", "the URL-token form of /api/mcp (the token is a secret path segment)"],
  ["/api/mcp/oauth-protected-resource", "MCP authorization metadata, linked from 401s"],
  ["/api/metrics", "the operator's Prometheus scrape (operator token), not part of the workspace API"],
]);
/** Methods that only answer 405. */
const REFUSED = new Set(["get /api/mcp", "delete /api/mcp"]);

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

function implementedOperations(): Set<string> {
  const operations = new Set<string>();
  for (const file of routeFiles("app/api")) {
    const route = `/${path.relative("app", path.dirname(file))}`.replace(
      /\[\.{3}(\w+)\]|\[(\w+)\]/g,
      (_, rest, name) => `{${rest ?? name}}`,
    );
    if (UNDOCUMENTED.has(route)) continue;
    const source = readFileSync(file, "utf8");
    for (const [, method] of source.matchAll(
      /export (?:const|async function|function) (GET|POST|PUT|DELETE)\b/g,
    )) {
      operations.add(`${(method as string).toLowerCase()} ${route}`);
    }
  }
  return operations;
}

describe("OpenAPI document", () => {
  const document = openApiDocument();

  it("is OpenAPI 3.1 with bearer security and an error schema", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
    expect(document.components.schemas.Error.required).toEqual(["error"]);
  });

  it("documents exactly the operations the route files implement", () => {
    const documented = new Set(
      Object.entries(document.paths).flatMap(([route, methods]) =>
        Object.keys(methods).map((m) => `${m} ${route}`),
      ),
    );
    const implemented = implementedOperations();
    for (const refused of REFUSED) implemented.delete(refused);
    expect([...documented].sort()).toEqual([...implemented].sort());
  });

  it("publishes the verbs' request schemas, which reject unknown fields", () => {
    for (const route of ["/api/v1/search", "/api/v1/fetch", "/api/v1/answer", "/api/v1/papers"]) {
      const post = (
        document.paths[route] as {
          post: { requestBody: { content: Record<string, { schema: Record<string, unknown> }> } };
        }
      ).post;
      const body = post.requestBody.content["application/json"]?.schema;
      expect(body).toMatchObject({ type: "object", additionalProperties: false });
      expect(Object.keys((body?.properties as object) ?? {})).toContain(
        route.endsWith("fetch") ? "url" : "query",
      );
    }
  });
});
