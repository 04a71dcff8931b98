/**
 * The call mix of the load tests, as a multi-tenant gateway sees it: calls rotate over several tenants'
 * tokens, and each connection cycles through eight calls —
 *   3 REST searches over a small rotating set of queries (mostly cache hits after the first round),
 *   2 MCP web_search calls (likewise),
 *   2 fetches of loopback pages (extraction on a miss),
 *   1 REST search that bypasses the cache (a fan-out to the five providers every time).
 * Every call is one the product traces and, on a miss, charges.
 */
import type { LoadCall } from "./load";
import { mcpHeaders, toolCallBody } from "./mcp";
import { FIVE_PROVIDERS } from "./server-env";

const QUERIES = 20;

function restHeaders(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}`, "content-type": "application/json" };
}

export function callMix(tokens: readonly string[], pageUrl: (i: number) => string): LoadCall[] {
  const providers = [...FIVE_PROVIDERS];
  const token = (n: number) => tokens[n % tokens.length] ?? "";
  const search = (kind: string, body: (n: number) => object): LoadCall => ({
    kind,
    method: "POST",
    path: "/api/v1/search",
    headers: (n) => restHeaders(token(n)),
    body: (n) => JSON.stringify(body(n)),
  });
  const cachedSearch = search("search", (n) => ({ query: `load query ${n % QUERIES}`, providers }));
  const mcpSearch: LoadCall = {
    kind: "mcp",
    method: "POST",
    path: "/api/mcp",
    headers: (n) => mcpHeaders(token(n)),
    body: (n) => toolCallBody("web_search", { query: `mcp query ${n % QUERIES}`, providers }, n),
  };
  const fetchPage: LoadCall = {
    kind: "fetch",
    method: "POST",
    path: "/api/v1/fetch",
    headers: (n) => restHeaders(token(n)),
    body: (n) => JSON.stringify({ url: pageUrl(n), format: "markdown" }),
  };
  const uncachedSearch = search("search-no-cache", (n) => ({
    query: `uncached query ${n}`,
    providers,
    no_cache: true,
  }));
  return [
    cachedSearch,
    mcpSearch,
    fetchPage,
    cachedSearch,
    uncachedSearch,
    mcpSearch,
    fetchPage,
    cachedSearch,
  ];
}
