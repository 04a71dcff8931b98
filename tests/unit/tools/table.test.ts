/**
 * The tool table is the one source: every view derived from it (MCP, the REST route, OpenAPI, playground,
 * CLI, provider status, the operator's providers, the token form's scope hints, lib/tools/README.md) lists
 * each entry with the entry's own name, scope, path, schemas and provider kind.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { TOOL_VIEWS, viewOf } from "@/components/dashboard/playground/tool-views";
import { apiServerUrl, openApiDocument } from "@/lib/api/openapi";
import { PLAYGROUND_TOOL_NAMES } from "@/lib/dashboard/playground-run";
import { TOOLS_BY_SCOPE } from "@/lib/dashboard/scope-tools";
import { TOOLS as MCP_TOOLS } from "@/lib/mcp/tools";
import type { ProviderKind } from "@/lib/pipeline/providers/catalog";
import { operatorProvidersByKind } from "@/lib/pipeline/providers/operator-providers";
import type { providerStatus } from "@/lib/services/providers/provider-status";
import { operatorProvidersByTool, toolsOfKinds, toProviderStatusResponse } from "@/lib/tools/provider-kinds";
import { crawlJobResponse } from "@/lib/tools/responses";
import { TOOLS, TRACED_TOOL_NAMES } from "@/lib/tools/table";
import { estimateResponse } from "@/lib/tools/tool";
import { TOOL_COMMANDS } from "@/scripts/cli/tool-commands";
import { appRoute, routeFileFor } from "@/tests/support/app-routes";

type Operation = {
  operationId?: string;
  parameters?: Array<{ name: string; schema: unknown }>;
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
};
const document = openApiDocument();
const operations = Object.values(document.paths).flatMap((methods) => Object.values(methods) as Operation[]);
const operationOf = (path: string, method: string) =>
  (document.paths[path] as Record<string, Operation> | undefined)?.[method];
const PROVIDER_KINDS: ProviderKind[] = ["search", "fetch", "answer", "papers", "images"];

/** Each tool's span kind as its verbs declare it to runCall or the trace (`tool: "…", spanKind: "…"`). */
function spanKindsOfVerbs(): Map<string, Set<string>> {
  const kinds = new Map<string, Set<string>>();
  const files = readdirSync("lib/services", { recursive: true, encoding: "utf8" });
  for (const file of files.filter((name) => name.endsWith(".ts"))) {
    const source = readFileSync(join("lib/services", file), "utf8");
    for (const [, tool, kind] of source.matchAll(/tool: "(\w+)",\s*spanKind: "(\w+)"/g)) {
      kinds.set(tool as string, (kinds.get(tool as string) ?? new Set()).add(kind as string));
    }
  }
  return kinds;
}

/** The rows of the table in lib/tools/README.md, cells without their backticks. */
function readmeRows(): string[][] {
  const readme = readFileSync("lib/tools/README.md", "utf8");
  return readme
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) =>
      line
        .split("|")
        .slice(1, -1)
        .map((cell) => cell.trim().replaceAll("`", "")),
    );
}

const outputJsonSchema = (schema: z.ZodType) => {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io: "output", unrepresentable: "any" });
  return json;
};

describe("the tool table", () => {
  it("has unique names, paths and operation ids", () => {
    for (const key of ["name", "path", "operationId"] as const) {
      const values = TOOLS.map((tool) => (key === "name" ? tool.name : tool.rest[key]));
      expect(new Set(values).size, key).toBe(TOOLS.length);
    }
  });

  it("is what MCP registers, in its order, with each tool's scope", () => {
    expect(MCP_TOOLS.map(({ name, scope }) => ({ name, scope }))).toEqual(
      TOOLS.map(({ name, scope }) => ({ name, scope })),
    );
  });

  it.each(TOOLS.map((tool) => [tool.name, tool] as const))(
    "%s is served at its REST path by the tools' dynamic route, with its method only",
    async (_, tool) => {
      // No static route file shadows the path, and the dynamic route knows the entry.
      expect(routeFileFor(tool.rest.path)?.file).toBe("app/api/v1/[tool]/route.ts");
      const { handlers, params } = await appRoute(tool.rest.path);
      const options = await handlers.OPTIONS?.(new Request(`http://localhost${tool.rest.path}`), {
        params: Promise.resolve(params),
      });
      const method = tool.rest.method.toUpperCase();
      expect(options?.headers.get("allow")).toBe(
        method === "GET" ? "GET, HEAD, OPTIONS" : `OPTIONS, ${method}`,
      );
    },
  );

  it.each(TOOLS.map((tool) => [tool.name, tool] as const))(
    "%s is an OpenAPI operation with its operationId, input and response schema",
    (_, tool) => {
      const operation = operationOf(tool.rest.path, tool.rest.method);
      expect(operation).toMatchObject({ operationId: tool.rest.operationId, summary: tool.rest.summary });
      const answer = (status: string) => operation?.responses[status]?.content?.["application/json"]?.schema;
      const estimate = outputJsonSchema(estimateResponse);
      // Every tool answers estimate: true with its estimate: a job's is a 200 beside the job's 202.
      if (tool.background?.when) {
        // Its larger calls are jobs (crawl): 200 for a synchronous call or an estimate, 202 with the job.
        expect(answer("200")).toMatchObject({
          anyOf: [outputJsonSchema(tool.outputSchema), { ...estimate, description: expect.any(String) }],
        });
        expect(answer("202")).toEqual(outputJsonSchema(crawlJobResponse));
      } else if (tool.background) {
        expect(answer("202")).toEqual(outputJsonSchema(tool.outputSchema));
        expect(answer("200")).toEqual(estimate);
      } else {
        expect(answer("200")).toMatchObject({
          anyOf: [outputJsonSchema(tool.outputSchema), { ...estimate, description: expect.any(String) }],
        });
      }
      if (tool.rest.method === "post") expect(operation).toHaveProperty("requestBody");
    },
  );

  it("is offered by the playground, except the entries that opt out", () => {
    expect(PLAYGROUND_TOOL_NAMES).toEqual(
      TOOLS.filter((tool) => tool.playground !== false).map((tool) => tool.name),
    );
    expect(PLAYGROUND_TOOL_NAMES).toEqual([
      "web_search",
      "fetch",
      "crawl",
      "extract",
      "answer",
      "paper_search",
      "image_search",
      "similar",
    ]);
  });

  it("gives the traces filter every tool whose calls are traced", () => {
    expect(TRACED_TOOL_NAMES).toEqual([
      "web_search",
      "fetch",
      "crawl",
      "extract",
      "answer",
      "paper_search",
      "image_search",
      "similar",
      "research",
    ]);
    const parameter = operationOf("/api/v1/traces", "get")?.parameters?.find((p) => p.name === "tool");
    expect(parameter?.schema).toMatchObject({ enum: TRACED_TOOL_NAMES });
  });

  it("gives each provider kind exactly one tool, which provider status names for the kind", () => {
    for (const kind of PROVIDER_KINDS) {
      expect(TOOLS.filter((tool) => tool.providers === kind).length, kind).toBe(1);
    }
    expect(toolsOfKinds(PROVIDER_KINDS)).toEqual([
      "web_search",
      "fetch",
      "answer",
      "paper_search",
      "image_search",
    ]);
  });

  it("answers provider status with each provider's kinds as its tools, in the response's own order", () => {
    const budget = { metric: "requests", period: "day", limit: 1, used: 0, remaining: 1, resets_at: null };
    const entry = {
      provider: "tavily",
      name: "Tavily",
      available: true,
      kinds: ["search", "fetch", "answer"],
      unavailable_reason: null,
      key_source: "tenant",
    };
    const status = { providers: [entry], all_providers_budgets: [budget] } as unknown as Awaited<
      ReturnType<typeof providerStatus>
    >;
    const [provider] = toProviderStatusResponse(status).providers;
    expect(Object.keys(provider ?? {})).toEqual([
      "provider",
      "name",
      "available",
      "tools",
      "unavailable_reason",
      "key_source",
    ]);
    expect(provider?.tools).toEqual(["web_search", "fetch", "answer"]);
    expect(toProviderStatusResponse(status).all_providers_budgets).toEqual([budget]);
  });

  it("lists the operator's providers under each tool that runs on providers, in the table's order", () => {
    const env = { BRAVE_API_KEY: "k" };
    const byKind = operatorProvidersByKind(env);
    expect(operatorProvidersByTool(env)).toEqual(
      TOOLS.flatMap((tool) => (tool.providers ? [[tool.name, byKind[tool.providers]]] : [])),
    );
    expect(operatorProvidersByTool(env).map(([tool]) => tool)).toEqual([
      "web_search",
      "fetch",
      "extract",
      "answer",
      "paper_search",
      "image_search",
    ]);
    expect(operatorProvidersByTool(env)[0]?.[1]).toContain("brave");
  });

  it("has a playground view only for tools the playground offers, and a JSON one for any other", () => {
    for (const name of Object.keys(TOOL_VIEWS)) expect(PLAYGROUND_TOOL_NAMES).toContain(name);
    const fallback = viewOf("research", "Research a question");
    expect(fallback).toMatchObject({ label: "Research a question", Form: expect.any(Function) });
    expect(fallback.count({} as never)).toBe("Result");
  });

  it("hints each token scope with the tools it allows", () => {
    expect(TOOLS_BY_SCOPE).toEqual({
      search: ["web_search", "image_search", "similar", "research"],
      fetch: ["fetch", "crawl", "extract"],
      answer: ["answer"],
      papers: ["paper_search"],
    });
    const hinted = Object.values(TOOLS_BY_SCOPE).flat();
    expect(hinted.sort()).toEqual(
      TOOLS.filter((tool) => tool.scope !== null)
        .map((tool) => tool.name)
        .sort(),
    );
  });

  it("is written out in lib/tools/README.md: tool, scope, REST route, span kind, provider kind", () => {
    const spanKinds = spanKindsOfVerbs();
    expect(readmeRows()).toEqual(
      TOOLS.map((tool) => [
        tool.name,
        tool.scope ?? "any token",
        `${tool.rest.method.toUpperCase()} ${tool.rest.path}`,
        [...(spanKinds.get(tool.name) ?? ["—"])].join(", "),
        tool.providers ?? "—",
      ]),
    );
  });

  it("gives the CLI a command per entry with a flag per simple input field", () => {
    expect(Object.keys(TOOL_COMMANDS)).toEqual(TOOLS.map((tool) => `tool ${tool.name}`));
    expect(TOOL_COMMANDS["tool paper_search"]?.flags).toEqual(
      expect.arrayContaining(["tenant", "input", "json", "query", "max-results", "year-from", "open-access"]),
    );
    expect(TOOL_COMMANDS["tool paper_search"]?.booleans).toEqual([
      "json",
      "open-access",
      "no-cache",
      "estimate",
    ]);
  });
});

describe("the OpenAPI document", () => {
  it("names every operation with a unique operationId", () => {
    const ids = operations.map((operation) => operation.operationId);
    expect(ids.every((id) => typeof id === "string" && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("says where the API is served", () => {
    expect(document.servers).toEqual([{ url: "/" }]);
    expect(openApiDocument("https://smx.example").servers).toEqual([{ url: "https://smx.example" }]);
  });

  it("takes the server URL from AUTH_URL, else from an allowed Host, never from a foreign one", () => {
    const request = (host: string) => new Request(`http://${host}/api/openapi.json`, { headers: { host } });
    const allowedHosts = [{ name: "localhost" }, { name: "api.example", port: "8443" }];
    expect(apiServerUrl(request("evil.example"), { publicUrl: "https://smx.example/", allowedHosts })).toBe(
      "https://smx.example",
    );
    expect(apiServerUrl(request("localhost:3000"), { allowedHosts })).toBe("http://localhost:3000");
    expect(apiServerUrl(request("api.example:8443"), { allowedHosts })).toBe("http://api.example:8443");
    expect(apiServerUrl(request("evil.example"), { allowedHosts })).toBe("/");
    expect(apiServerUrl(request("api.example:9999"), { allowedHosts })).toBe("/");
  });
});
