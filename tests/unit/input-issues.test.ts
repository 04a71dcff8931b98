/**
 * Schema issues read as sentences for people, the same in every transport: a verb's invalid_input (REST,
 * dashboard, CLI), the REST mapping of the engine's own zod errors, and MCP's argument check, which the
 * SDK runs with the verb's schema before the verb.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { toErrorResponse } from "@/lib/api/errors";
import { mcpTool } from "@/lib/mcp/define-tool";
import { newMcpServer } from "@/lib/mcp/revision-2025";
import { toolErrorFrom } from "@/lib/mcp/tool-errors";
import type { ServiceError } from "@/lib/pipeline/errors";
import { parseInput } from "@/lib/pipeline/validate";
import { setBudgetInput } from "@/lib/services/budgets/set-budget";
import { fetchToolInput } from "@/lib/services/fetch/fetch-page";
import { webSearchInput } from "@/lib/services/search/web-search";
import { tools } from "@/lib/tools/table";

/** The invalid_input a verb's parse throws for `input`. */
function refusal(schema: z.ZodType, input: unknown): ServiceError {
  try {
    parseInput(schema, input);
  } catch (error) {
    return error as ServiceError;
  }
  throw new Error("the input was accepted");
}

const message = (schema: z.ZodType, input: unknown) => refusal(schema, input).message;

describe("validation messages", () => {
  it.each([
    ["an empty string", { query: "" }, "query: must not be empty"],
    ["a missing field", {}, "query: is required (or queries)"],
    ["a wrong type", { query: 42 }, "query: must be a string, not a number"],
    ["text for a number", { query: "x", max_results: "ten" }, "max_results: must be a number, not a string"],
    [
      "a fraction for a whole number",
      { query: "x", max_results: 2.5 },
      "max_results: must be a whole number",
    ],
    ["a negative deadline", { query: "x", timeout_ms: -5 }, "timeout_ms: must be at least 1"],
    [
      "a value outside the enum",
      { query: "x", mode: "everything" },
      "mode: must be one of fanout, auto, budget, single",
    ],
    ["an empty list entry", { query: "x", providers: [""] }, "providers[0]: must not be empty"],
    ["too long a string", { query: "x".repeat(2_001) }, "query: must be at most 2000 characters long"],
    [
      "too many items",
      { query: "x", providers: Array(31).fill("brave") },
      "providers: must have at most 30 items",
    ],
    ["a schema's own words", { query: "x", region: "usa" }, "region: two-letter country code"],
  ])("%s", (_, input, expected) => {
    expect(message(webSearchInput, input)).toBe(expected);
  });

  it("names unknown fields and the known ones", () => {
    expect(message(webSearchInput, { query: "x", colour: "blue" })).toMatch(
      /^unknown field "colour" \(known: query, max_results, mode, timeout_ms, /,
    );
    expect(message(z.strictObject({ a: z.string() }), { a: "x", b: 1, c: 2 })).toBe(
      'unknown fields "b", "c" (known: a)',
    );
  });

  it("says numeric bounds, formats and single values as people would", () => {
    const schema = z.strictObject({
      days: z.number().int().min(1).max(500),
      id: z.uuid(),
      code: z.string().length(2),
      kind: z.literal("budget"),
      share: z.number().positive(),
    });
    expect(message(schema, { days: 900, id: "x", code: "usa", kind: "quota", share: 0 })).toBe(
      "days: must be at most 500; id: must be a UUID; code: must be exactly 2 characters long; kind: must be budget; share: must be greater than 0",
    );
  });

  it("spells out five issues and counts the rest; the details keep every issue and its path", () => {
    const error = refusal(setBudgetInput, {
      provider: 1,
      metric: 2,
      period: 3,
      limit: "x",
      soft: "y",
      anchorDay: "z",
    });
    expect(error.message).toMatch(/; and 1 more issue$/);
    expect(error.message.split("; ")).toHaveLength(6);
    expect(error.details).toHaveLength(6);
    expect(error.details).toContainEqual({ path: "metric", message: "must be one of requests, usd" });
  });

  it("is what REST answers for a zod error the engine throws", async () => {
    const parsed = fetchToolInput.safeParse({ url: "https://example.com/", format: "pdf" });
    if (parsed.success) throw new Error("accepted");
    const response = toErrorResponse(parsed.error, "request-1");
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        code: "invalid_input",
        message: "format: must be one of markdown, text, html",
        details: [{ path: "format", message: "must be one of markdown, text, html" }],
      },
    });
  });

  it("is what an MCP tool error says for a zod error the engine throws", () => {
    const parsed = webSearchInput.safeParse({ query: "" });
    if (parsed.success) throw new Error("accepted");
    expect(toolErrorFrom(parsed.error, "web_search").content).toEqual([
      {
        type: "text",
        text: "web_search failed (invalid_input): query: must not be empty. Fix the arguments and call again.",
      },
    ]);
  });

  it("is what MCP's own argument check reports, before the verb runs", async () => {
    const server = newMcpServer("test");
    mcpTool(tools.web_search).registerRunner(server, async () => {
      throw new Error("the runner must not run");
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "input-issues-test", version: "1.0.0" });
    await client.connect(clientSide);
    try {
      const result = await client.callTool({ name: "web_search", arguments: { query: "x", max_results: 0 } });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toContain("must be at least 1 at max_results");
      expect(JSON.stringify(result.content)).not.toMatch(/Too small|expected number/);
    } finally {
      await client.close();
    }
  });
});
