/**
 * Hostile input for every REST route and MCP tool (RELIABILITY R2): oversized bodies, bodies that are not
 * JSON objects, unknown fields, wrong types, 20,000-character strings, huge arrays, invalid ids. Each case
 * names the status it must get and what its message must point at. None of them may reach a provider,
 * write a row or charge anything.
 */

import { ROUTE_TRAVERSALS } from "@/tests/unit/fetch/route-traversals";

export interface RestCase {
  name: string;
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** Path and query; the token travels as a Bearer header. */
  path: string;
  /** Raw body; objects are sent as JSON. */
  body?: unknown;
  status: number;
  message: RegExp;
}

export interface McpCase {
  name: string;
  tool: string;
  args: Record<string, unknown>;
  /** What the tool error (or protocol error) must mention. */
  message: RegExp;
}

const LONG = "a".repeat(20_000);
const HUGE_ARRAY = Array.from({ length: 10_000 }, (_, i) => `item-${i}.example.com`);
/** Just over the 256 KB body cap, as valid JSON. */
const OVERSIZED = JSON.stringify({ query: "x", padding: "p".repeat(300 * 1024) });
const PROVIDERS = ["brave", "tavily"];

const raw = (text: string) => ({ raw: text });
export const isRaw = (body: unknown): body is { raw: string } =>
  typeof body === "object" && body !== null && "raw" in body && typeof body.raw === "string";

/** The malformed-body cases every JSON route gets: JSON that is not an object is refused as such. */
function bodyCases(method: RestCase["method"], path: string): RestCase[] {
  const notAnObject = /must be a JSON object/;
  return [
    { name: "a 300 KB body", method, path, body: raw(OVERSIZED), status: 413, message: /over 262144 bytes/ },
    {
      name: "a body that is not JSON",
      method,
      path,
      body: raw("{not json"),
      status: 400,
      message: /not valid JSON/,
    },
    { name: "JSON null", method, path, body: raw("null"), status: 400, message: notAnObject },
    { name: "a JSON array", method, path, body: raw("[1,2,3]"), status: 400, message: notAnObject },
  ];
}

const unknownField = (method: RestCase["method"], path: string, valid: object): RestCase => ({
  name: "an unknown field",
  method,
  path,
  body: { ...valid, shadow_field: true },
  status: 400,
  message: /shadow_field|unrecognized/i,
});

const invalid = (
  name: string,
  method: RestCase["method"],
  path: string,
  body: unknown,
  field: string,
): RestCase => ({
  name,
  method,
  path,
  body,
  status: 400,
  message: new RegExp(field),
});

export const REST_CASES: RestCase[] = [
  // POST /api/v1/search
  ...bodyCases("POST", "/api/v1/search"),
  unknownField("POST", "/api/v1/search", { query: "x", providers: PROVIDERS }),
  invalid("a number as query", "POST", "/api/v1/search", { query: 42 }, "query"),
  invalid("a 20,000-character query", "POST", "/api/v1/search", { query: LONG }, "query"),
  invalid("max_results as text", "POST", "/api/v1/search", { query: "x", max_results: "ten" }, "max_results"),
  invalid("10,000 providers", "POST", "/api/v1/search", { query: "x", providers: HUGE_ARRAY }, "providers"),
  invalid(
    "10,000 include_domains",
    "POST",
    "/api/v1/search",
    { query: "x", include_domains: HUGE_ARRAY },
    "include_domains",
  ),
  invalid("an unknown mode", "POST", "/api/v1/search", { query: "x", mode: "everything" }, "mode"),
  invalid("a negative deadline", "POST", "/api/v1/search", { query: "x", timeout_ms: -5 }, "timeout_ms"),
  // POST /api/v1/fetch
  ...bodyCases("POST", "/api/v1/fetch"),
  unknownField("POST", "/api/v1/fetch", { url: "https://example.com/" }),
  invalid("a number as url", "POST", "/api/v1/fetch", { url: 5 }, "url"),
  invalid("a url that is not a URL", "POST", "/api/v1/fetch", { url: "not a url" }, "url"),
  invalid("a 20,000-character url", "POST", "/api/v1/fetch", { url: `https://example.com/${LONG}` }, "url"),
  invalid(
    "an unknown format",
    "POST",
    "/api/v1/fetch",
    { url: "https://example.com/", format: "pdf" },
    "format",
  ),
  invalid(
    "10,000 providers",
    "POST",
    "/api/v1/fetch",
    { url: "https://example.com/", providers: HUGE_ARRAY },
    "providers",
  ),
  // Every domain route: an encoded `..` (which once walked the GitHub route out of the repository with the
  // operator's token) or a malformed escape is refused before any step (security issue #14).
  ...ROUTE_TRAVERSALS.map(
    ({ name, url, problem }): RestCase => ({
      name,
      method: "POST",
      path: "/api/v1/fetch",
      body: { url },
      status: 400,
      message: problem,
    }),
  ),
  // POST /api/v1/answer
  ...bodyCases("POST", "/api/v1/answer"),
  unknownField("POST", "/api/v1/answer", { query: "x" }),
  invalid("a 20,000-character question", "POST", "/api/v1/answer", { query: LONG }, "query"),
  invalid("an array as question", "POST", "/api/v1/answer", { query: ["x"] }, "query"),
  // POST /api/v1/papers
  ...bodyCases("POST", "/api/v1/papers"),
  unknownField("POST", "/api/v1/papers", { query: "x" }),
  invalid("a 20,000-character query", "POST", "/api/v1/papers", { query: LONG }, "query"),
  invalid("year_from as text", "POST", "/api/v1/papers", { query: "x", year_from: "soon" }, "year_from"),
  // PUT /api/v1/budgets
  ...bodyCases("PUT", "/api/v1/budgets"),
  unknownField("PUT", "/api/v1/budgets", { provider: "brave", metric: "requests", period: "day", limit: 5 }),
  invalid(
    "a limit as text",
    "PUT",
    "/api/v1/budgets",
    { provider: "brave", metric: "requests", period: "day", limit: "lots" },
    "limit",
  ),
  invalid(
    "a negative limit",
    "PUT",
    "/api/v1/budgets",
    { provider: "brave", metric: "requests", period: "day", limit: -1 },
    "limit",
  ),
  invalid(
    "an unknown metric",
    "PUT",
    "/api/v1/budgets",
    { provider: "brave", metric: "bitcoin", period: "day", limit: 1 },
    "metric",
  ),
  invalid(
    "a 20,000-character provider",
    "PUT",
    "/api/v1/budgets",
    { provider: LONG, metric: "requests", period: "day", limit: 1 },
    "provider",
  ),
  invalid("a budget id that is not a UUID", "DELETE", "/api/v1/budgets?id=garbage", undefined, "id"),
  // PUT /api/v1/keys
  ...bodyCases("PUT", "/api/v1/keys"),
  unknownField("PUT", "/api/v1/keys", { provider: "brave", key: "brave-key-123456" }),
  invalid("a number as key", "PUT", "/api/v1/keys", { provider: "brave", key: 12345678 }, "key"),
  invalid("a 20,000-character key", "PUT", "/api/v1/keys", { provider: "brave", key: LONG }, "key"),
  invalid(
    "a 20,000-character provider",
    "PUT",
    "/api/v1/keys",
    { provider: LONG, key: "brave-key-123456" },
    "provider",
  ),
  // POST /api/v1/tokens
  ...bodyCases("POST", "/api/v1/tokens"),
  unknownField("POST", "/api/v1/tokens", { name: "x" }),
  invalid("an unknown scope", "POST", "/api/v1/tokens", { name: "x", scopes: ["root"] }, "scopes"),
  invalid("10,000 scopes", "POST", "/api/v1/tokens", { name: "x", scopes: HUGE_ARRAY }, "scopes"),
  invalid("a 20,000-character name", "POST", "/api/v1/tokens", { name: LONG }, "name"),
  invalid(
    "an expiry that is not a date",
    "POST",
    "/api/v1/tokens",
    { name: "x", expiresAt: "yesterday" },
    "expiresAt",
  ),
  invalid("a token id that is not a UUID", "DELETE", "/api/v1/tokens?id=garbage", undefined, "id"),
  // GET /api/v1/traces
  invalid("a limit that is not a number", "GET", "/api/v1/traces?limit=abc", undefined, "limit"),
  invalid("a limit of a billion", "GET", "/api/v1/traces?limit=1000000000", undefined, "limit"),
  invalid("a forged cursor", "GET", "/api/v1/traces?cursor=garbage", undefined, "cursor"),
  invalid("a trace id that is not a UUID", "GET", "/api/v1/traces/not-a-uuid", undefined, "id"),
  // Compatibility: POST /api/search (Open WebUI), GET|POST /api/researcher (GPT-Researcher). Their clients
  // send loosely typed values, but a body or query that is not a search must still be refused.
  ...bodyCases("POST", "/api/search"),
  invalid("an object as query", "POST", "/api/search", { query: { $ne: "" } }, "query"),
  invalid("a 20,000-character query", "POST", "/api/search", { query: LONG }, "query"),
  invalid("count as text", "POST", "/api/search", { query: "x", count: "many" }, "max_results"),
  ...bodyCases("POST", "/api/researcher"),
  invalid("an object as query", "POST", "/api/researcher", { query: { $ne: "" } }, "query"),
  // 5,000 characters: a 20,000-character URL is refused by Node itself (431, over its 16 KB header limit).
  invalid("a 5,000-character query", "GET", `/api/researcher?query=${"a".repeat(5_000)}`, undefined, "query"),
  invalid("no query at all", "GET", "/api/researcher", undefined, "query"),
  // Paths and methods no route serves: JSON errors through Next's router, never its empty 405 or HTML 404.
  {
    name: "the wrong method on a tool",
    method: "GET",
    path: "/api/v1/search",
    status: 405,
    message: /^GET is not allowed on \/api\/v1\/search; allowed: OPTIONS, POST$/,
  },
  {
    name: "the wrong method on a static route",
    method: "DELETE",
    path: "/api/v1/providers",
    status: 405,
    message: /^DELETE is not allowed on \/api\/v1\/providers; allowed: GET, HEAD, OPTIONS$/,
  },
  {
    name: "an unknown tool",
    method: "POST",
    path: "/api/v1/nonsense",
    body: { query: "x" },
    status: 404,
    message: /^no API route at \/api\/v1\/nonsense;/,
  },
  {
    name: "an unknown path",
    method: "GET",
    path: "/api/v2/search",
    status: 404,
    message: /^no API route at/,
  },
];

export const MCP_CASES: McpCase[] = [
  { name: "a 20,000-character query", tool: "web_search", args: { query: LONG }, message: /query/ },
  { name: "a number as query", tool: "web_search", args: { query: 42 }, message: /query/ },
  {
    name: "an unknown field",
    tool: "web_search",
    args: { query: "x", shadow_field: 1 },
    message: /shadow_field|unrecognized/i,
  },
  // The SDK refuses arrays over 1,000 elements before the tool's schema sees them.
  {
    name: "10,000 providers",
    tool: "web_search",
    args: { query: "x", providers: HUGE_ARRAY },
    message: /providers|maximum of 1000 elements/,
  },
  {
    name: "10,000 exclude_domains",
    tool: "web_search",
    args: { query: "x", exclude_domains: HUGE_ARRAY },
    message: /exclude_domains|maximum of 1000 elements/,
  },
  { name: "a url that is not a URL", tool: "fetch", args: { url: "not a url" }, message: /url/ },
  {
    name: "an unknown format",
    tool: "fetch",
    args: { url: "https://example.com/", format: "pdf" },
    message: /format/,
  },
  ...ROUTE_TRAVERSALS.map(({ name, url, problem }) => ({
    name,
    tool: "fetch",
    args: { url },
    message: problem,
  })),
  { name: "a 20,000-character question", tool: "answer", args: { query: LONG }, message: /query/ },
  { name: "a 20,000-character query", tool: "paper_search", args: { query: LONG }, message: /query/ },
  {
    name: "year_from as text",
    tool: "paper_search",
    args: { query: "x", year_from: "soon" },
    message: /year_from/,
  },
  {
    name: "an unknown field",
    tool: "budget_status",
    args: { shadow_field: 1 },
    message: /shadow_field|unrecognized/i,
  },
  { name: "a tool that does not exist", tool: "drop_tables", args: {}, message: /drop_tables/ },
];

/** Fetch targets the SSRF guard refuses (no loopback: the test instance allows 127.0.0.1 for its pages). */
export const BLOCKED_URLS: Array<{ url: string; message: RegExp }> = [
  { url: "javascript:alert(1)", message: /scheme javascript: is not allowed/ },
  { url: "ftp://example.com/file.txt", message: /scheme ftp: is not allowed/ },
  { url: "http://user:secret@example.com/", message: /credentials/ },
  { url: "http://169.254.169.254/latest/meta-data/", message: /metadata/ },
  { url: "http://10.0.0.1/admin", message: /private|not allowed|blocked/i },
];
