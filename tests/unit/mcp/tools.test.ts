import { describe, expect, it } from "vitest";
import { TOOLS, toolsForScopes } from "@/lib/mcp/tools";
import { DEFAULT_TOKEN_SCOPES, SCOPES } from "@/lib/services/context";

const names = (scopes: Parameters<typeof toolsForScopes>[0]) => toolsForScopes(scopes).map((t) => t.name);

describe("toolsForScopes", () => {
  it("gives a default token every tool", () => {
    expect(names(DEFAULT_TOKEN_SCOPES)).toEqual([
      "web_search",
      "fetch",
      "crawl",
      "answer",
      "paper_search",
      "research",
      "budget_status",
    ]);
    expect(names(SCOPES)).toEqual(TOOLS.map((t) => t.name));
  });

  it("maps each scope to its tool, and budget_status to every token", () => {
    expect(names(["mcp"])).toEqual(["budget_status"]);
    expect(names(["mcp", "search"])).toEqual(["web_search", "research", "budget_status"]);
    expect(names(["mcp", "fetch"])).toEqual(["fetch", "crawl", "budget_status"]);
    expect(names(["mcp", "answer"])).toEqual(["answer", "budget_status"]);
    expect(names(["mcp", "papers"])).toEqual(["paper_search", "budget_status"]);
    expect(names(["admin"])).toEqual(["budget_status"]);
  });
});
