import { describe, expect, it } from "vitest";
import { answerStreams, refusedCall, TOOLS, toolsFor, touchesJobs } from "@/lib/mcp/tools";
import { type ConnectionProfile, DEFAULT_TOKEN_SCOPES, SCOPES, type Scope } from "@/lib/pipeline/context";

const names = (scopes: readonly Scope[], profile?: ConnectionProfile) =>
  toolsFor({ scopes, profile }).map((t) => t.name);

describe("toolsFor", () => {
  it("gives a default token every tool", () => {
    expect(names(DEFAULT_TOKEN_SCOPES)).toEqual([
      "web_search",
      "fetch",
      "crawl",
      "extract",
      "answer",
      "paper_search",
      "image_search",
      "similar",
      "research",
      "budget_status",
    ]);
    expect(names(SCOPES)).toEqual(TOOLS.map((t) => t.name));
  });

  it("maps each scope to its tool, and budget_status to every token", () => {
    expect(names(["mcp"])).toEqual(["budget_status"]);
    expect(names(["mcp", "search"])).toEqual([
      "web_search",
      "image_search",
      "similar",
      "research",
      "budget_status",
    ]);
    expect(names(["mcp", "fetch"])).toEqual(["fetch", "crawl", "extract", "budget_status"]);
    expect(names(["mcp", "answer"])).toEqual(["answer", "budget_status"]);
    expect(names(["mcp", "papers"])).toEqual(["paper_search", "budget_status"]);
    expect(names(["admin"])).toEqual(["budget_status"]);
  });

  it("lists only the profile's tools, and never one outside the scopes", () => {
    expect(names(DEFAULT_TOKEN_SCOPES, { tools: ["fetch"] })).toEqual(["fetch"]);
    expect(names(["mcp", "search"], { tools: ["web_search", "fetch"] })).toEqual(["web_search"]);
    expect(names(DEFAULT_TOKEN_SCOPES, { tools: [] })).toEqual([]);
    // Defaults alone narrow nothing.
    expect(names(["mcp", "fetch"], { defaults: { fetch: { format: "text" } } })).toEqual([
      "fetch",
      "crawl",
      "extract",
      "budget_status",
    ]);
  });
});

describe("refusedCall", () => {
  const call = (name: string, id: number | string = 7) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: {} },
  });

  it("names the missing scope of a tool outside the scopes, the tool alone outside the profile", () => {
    const ctx = { scopes: ["mcp", "search"] as Scope[], profile: { tools: ["web_search"] } };
    expect(refusedCall(call("fetch"), ctx)).toEqual({ id: 7, tool: "fetch", scope: "fetch" });
    expect(refusedCall(call("research", "r"), ctx)).toEqual({ id: "r", tool: "research" });
    expect(refusedCall(call("web_search"), ctx)).toBeNull();
  });

  it("finds the refused call in a batch and leaves unknown tools and other methods to the SDK", () => {
    const ctx = { scopes: ["mcp"] as Scope[], profile: { tools: ["budget_status"] } };
    expect(refusedCall([call("budget_status", 1), call("answer", 2)], ctx)).toMatchObject({ id: 2 });
    expect(refusedCall(call("no_such_tool"), ctx)).toBeNull();
    expect(refusedCall({ jsonrpc: "2.0", id: 1, method: "tools/list" }, ctx)).toBeNull();
  });
});

describe("answerStreams", () => {
  const call = (name: string, meta?: Record<string, unknown>) => ({
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name, arguments: {}, ...(meta && { _meta: meta }) },
  });

  it("answers fast calls, lists and the handshake as one JSON body", () => {
    expect(answerStreams(call("web_search"))).toBe(false);
    expect(answerStreams(call("budget_status", { other: 1 }))).toBe(false);
    expect(answerStreams({ jsonrpc: "2.0", id: 2, method: "tools/list" })).toBe(false);
    expect(answerStreams(undefined)).toBe(false);
    expect(answerStreams("not json-rpc")).toBe(false);
  });

  it("streams when a request asks for progress or calls a slow tool, alone or in a batch", () => {
    expect(answerStreams(call("web_search", { progressToken: 0 }))).toBe(true);
    for (const slow of ["answer", "fetch", "crawl", "research"]) expect(answerStreams(call(slow))).toBe(true);
    // web_search is slow only when it reads pages or may run past its default deadline.
    const search = (args: Record<string, unknown>) => ({
      ...call("web_search"),
      params: { name: "web_search", arguments: args },
    });
    expect(answerStreams(search({ query: "q", timeout_ms: 10_000 }))).toBe(false);
    expect(answerStreams(search({ query: "q", timeout_ms: 30_000 }))).toBe(true);
    expect(answerStreams(search({ query: "q", include_content: true }))).toBe(true);
    expect(answerStreams(search({ query: "q", grounded_snippets: true }))).toBe(true);
    expect(answerStreams([call("budget_status"), call("answer")])).toBe(true);
    expect(
      answerStreams({
        jsonrpc: "2.0",
        id: 3,
        method: "tools/list",
        params: { _meta: { progressToken: "p" } },
      }),
    ).toBe(true);
  });
});

describe("touchesJobs", () => {
  const request = (method: string, params?: Record<string, unknown>) => ({
    jsonrpc: "2.0",
    id: 1,
    method,
    params,
  });

  it("is a job tool's call or a tasks request: the function then stays for the worker", () => {
    expect(touchesJobs(request("tools/call", { name: "research", arguments: {} }))).toBe(true);
    for (const method of ["tasks/get", "tasks/result", "tasks/list", "tasks/cancel"])
      expect(touchesJobs(request(method, { taskId: "x" }))).toBe(true);
    expect(touchesJobs([request("tools/list"), request("tasks/get")])).toBe(true);
  });

  it("is nothing else", () => {
    expect(touchesJobs(request("tools/call", { name: "web_search", arguments: {} }))).toBe(false);
    expect(touchesJobs(request("tools/list"))).toBe(false);
    expect(touchesJobs(request("initialize"))).toBe(false);
    expect(touchesJobs(undefined)).toBe(false);
  });
});
