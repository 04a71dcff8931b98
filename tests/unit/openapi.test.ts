import { readdirSync } from "node:fs";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/api/openapi";
import { BACKGROUND_JOBS, cronPath } from "@/lib/services/ops/background-jobs";
import { TOOLS } from "@/lib/tools/table";
import { appRoute } from "@/tests/support/app-routes";

/** Routes outside the public API document, and why. */
const UNDOCUMENTED = new Map([
  ["/api/auth/{nextauth}", "next-auth's own sign-in routes"],
  ["/api/mcp/t/{token}", "the URL-token form of /api/mcp (the token is a secret path segment)"],
  ["/api/mcp/oauth-protected-resource", "MCP authorization metadata, linked from 401s"],
  ["/api/oauth/authorize", "OAuth, described by /.well-known/oauth-authorization-server (RFC 8414)"],
  ["/api/oauth/token", "OAuth, described by /.well-known/oauth-authorization-server (RFC 8414)"],
  ["/api/oauth/register", "OAuth, described by /.well-known/oauth-authorization-server (RFC 8414)"],
  ["/api/oauth/revoke", "OAuth, described by /.well-known/oauth-authorization-server (RFC 8414)"],
  ["/api/metrics", "the operator's Prometheus scrape (operator token), not part of the workspace API"],
  ...BACKGROUND_JOBS.map(
    (job) => [cronPath(job.name), "a background job for the operator's scheduler (CRON_SECRET)"] as const,
  ),
  ["/api/{path}", "every path no other route serves: a JSON 404"],
]);

/** Every method a route file answers other than with a 405: its OPTIONS lists them. */
async function servedMethods(pathname: string): Promise<string[]> {
  const { handlers, params } = await appRoute(pathname);
  const options = await handlers.OPTIONS?.(
    new Request(`http://localhost${pathname}`, { method: "OPTIONS" }),
    {
      params: Promise.resolve(params),
    },
  );
  const allow = options?.headers.get("allow") ?? "";
  return allow
    .split(", ")
    .filter((method) => method !== "OPTIONS" && method !== "HEAD")
    .map((method) => method.toLowerCase());
}

function routeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

/** The documented form of each path the route files serve; the tools' dynamic route, once per tool. */
function servedPaths(): string[] {
  return routeFiles("app/api").flatMap((file) => {
    const template = `/${path.relative("app", path.dirname(file))}`;
    if (template === "/api/v1/[tool]") return TOOLS.map((tool) => tool.rest.path);
    const route = template.replace(/\[{1,2}(?:\.{3})?(\w+)\]{1,2}/g, (_, name) => `{${name}}`);
    return UNDOCUMENTED.has(route) ? [] : [route];
  });
}

async function implementedOperations(): Promise<Set<string>> {
  const operations = new Set<string>();
  for (const route of servedPaths()) {
    for (const method of await servedMethods(route.replace(/\{\w+\}/g, "x0"))) {
      operations.add(`${method} ${route}`);
    }
  }
  return operations;
}

type JsonSchema = {
  type?: string;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  properties?: Record<string, JsonSchema>;
};
type Content = Record<string, { schema: unknown }>;
interface OperationObject {
  security?: unknown[];
  parameters?: Array<{ name: string; in: string; schema: unknown }>;
  requestBody?: { content: Content };
  responses: Record<string, { content?: Content } | undefined>;
}
const ERROR_REF = { $ref: "#/components/schemas/Error" };

describe("OpenAPI document", () => {
  const document = openApiDocument();

  it("is OpenAPI 3.1 with bearer security and an error schema", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" });
    expect(document.components.schemas.Error.required).toEqual(["error"]);
  });

  it("documents exactly the operations the route files implement", async () => {
    const documented = new Set(
      Object.entries(document.paths).flatMap(([route, methods]) =>
        Object.keys(methods).map((m) => `${m} ${route}`),
      ),
    );
    const implemented = await implementedOperations();
    expect([...documented].sort()).toEqual([...implemented].sort());
  });

  it("is structurally sound: every operation answers a JSON schema on success and the Error schema on failure", () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    const compiles = (schema: unknown) => expect(() => ajv.compile(schema as object)).not.toThrow();
    compiles(document.components.schemas.Error);
    for (const [route, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods as Record<string, OperationObject>)) {
        const at = `${method} ${route}`;
        const success =
          operation.responses["200"] ?? operation.responses["201"] ?? operation.responses["202"];
        expect(success?.content?.["application/json"]?.schema, at).toBeDefined();
        compiles(success?.content?.["application/json"]?.schema);
        expect(operation.responses.default?.content?.["application/json"]?.schema, at).toEqual(ERROR_REF);
        if (operation.security === undefined) {
          for (const status of ["400", "401", "403", "404", "429"]) {
            expect(
              operation.responses[status]?.content?.["application/json"]?.schema,
              `${at} ${status}`,
            ).toEqual(ERROR_REF);
          }
        }
        for (const parameter of operation.parameters ?? []) compiles(parameter.schema);
        const pathParameters = [...route.matchAll(/\{(\w+)\}/g)].map(([, name]) => name);
        expect(
          (operation.parameters ?? []).filter((p) => p.in === "path").map((p) => p.name),
          at,
        ).toEqual(pathParameters);
        const body = operation.requestBody?.content["application/json"]?.schema;
        if (body) compiles(body);
      }
    }
  });

  it("states every number's real bounds and default, as the verbs' schemas apply them", () => {
    const numbers = Object.entries(document.paths).flatMap(([route, methods]) =>
      Object.entries(methods as Record<string, OperationObject>).flatMap(([method, operation]) => {
        const body = operation.requestBody?.content["application/json"]?.schema as JsonSchema | undefined;
        const fromBody = Object.entries(body?.properties ?? {}).map(
          ([name, field]) => [name, field] as const,
        );
        const fromQuery = (operation.parameters ?? [])
          .filter((p) => p.in === "query")
          .map((p) => [p.name, p.schema as JsonSchema] as const);
        return [...fromBody, ...fromQuery]
          .filter(([, field]) => field.type === "integer" || field.type === "number")
          .map(([name, field]) => ({ at: `${method} ${route} ${name}`, field }));
      }),
    );
    expect(numbers.length).toBeGreaterThan(15);
    for (const { at, field } of numbers) {
      const { minimum, maximum } = field;
      expect({ at, minimum: typeof minimum, maximum: typeof maximum }).toEqual({
        at,
        minimum: "number",
        maximum: "number",
      });
      expect(maximum, at).toBeLessThanOrEqual(1e9);
      if (field.default !== undefined) {
        expect(field.default, at).toBeGreaterThanOrEqual(minimum as number);
        expect(field.default, at).toBeLessThanOrEqual(maximum as number);
      }
    }
    const search = document.paths["/api/v1/search"]?.post as OperationObject;
    const properties = (search.requestBody?.content["application/json"]?.schema as JsonSchema | undefined)
      ?.properties;
    expect(properties?.max_results).toMatchObject({ type: "integer", minimum: 1, maximum: 50, default: 10 });
    expect(properties?.timeout_ms).toMatchObject({ minimum: 100, maximum: 60_000, default: 10_000 });
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
