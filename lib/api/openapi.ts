/**
 * The OpenAPI 3.1 document of the HTTP API, generated from the same zod schemas the verbs validate with
 * and the responses are projected onto — never written twice. One entry per operation.
 */
import { z } from "zod";
import packageJson from "../../package.json";
import { answerToolInput } from "../services/answer/answer";
import { setBudgetInput } from "../services/budgets/set-budget";
import type { Scope } from "../services/context";
import { fetchToolInput } from "../services/fetch/fetch-page";
import { setKeyInput } from "../services/keys/set-key";
import { setLensInput } from "../services/lenses/set-lens";
import { paperSearchToolInput } from "../services/papers/paper-search";
import { webSearchInput } from "../services/search/web-search";
import { createTokenInput } from "../services/tokens/create-token";
import { listTracesInput } from "../services/traces/list-traces";
import {
  answerResponse,
  budgetStatusResponse,
  fetchResponse,
  lensListResponse,
  lensResponse,
  paperSearchResponse,
  searchResponse,
} from "./responses";

type Method = "get" | "post" | "put" | "delete";

export interface Operation {
  method: Method;
  path: string;
  summary: string;
  /** Scope the token needs; `null` for routes without authentication. */
  scope: Scope | "any" | null;
  body?: z.ZodType;
  query?: Record<string, string>;
  response?: z.ZodType;
}

const open = { type: "object", additionalProperties: true } as const;

export const OPERATIONS: readonly Operation[] = [
  {
    method: "post",
    path: "/api/v1/search",
    summary: "Fused web search over the workspace's providers",
    scope: "search",
    body: webSearchInput,
    response: searchResponse,
  },
  {
    method: "post",
    path: "/api/v1/fetch",
    summary: "A page as Markdown, text or HTML (SSRF-safe fetcher, then fetch providers)",
    scope: "fetch",
    body: fetchToolInput,
    response: fetchResponse,
  },
  {
    method: "post",
    path: "/api/v1/answer",
    summary: "Answers of every configured answer provider side by side, with citations",
    scope: "answer",
    body: answerToolInput,
    response: answerResponse,
  },
  {
    method: "post",
    path: "/api/v1/papers",
    summary: "arXiv, PubMed, Semantic Scholar and OpenAlex, merged",
    scope: "papers",
    body: paperSearchToolInput,
    response: paperSearchResponse,
  },
  {
    method: "get",
    path: "/api/v1/usage",
    summary:
      "What each budget leaves, per-provider usage and free tiers (budget ids, soft limits and alerts with the admin scope)",
    scope: "any",
    response: budgetStatusResponse,
  },
  {
    method: "get",
    path: "/api/v1/usage/history",
    summary: "Requests, spend, tool calls and cache hits per UTC day (oldest first, no gaps)",
    scope: "any",
    query: { days: "how many days back, 1–90 (default 30)" },
  },
  {
    method: "get",
    path: "/api/v1/providers",
    summary:
      "Every provider: tools it serves now, whose key pays and its verdict, budgets left, breaker, success rate and p50/p95",
    scope: "any",
  },
  { method: "get", path: "/api/v1/budgets", summary: "The workspace's budgets", scope: "admin" },
  {
    method: "put",
    path: "/api/v1/budgets",
    summary: "Create or replace the budget for (provider, metric, period)",
    scope: "admin",
    body: setBudgetInput,
  },
  {
    method: "delete",
    path: "/api/v1/budgets",
    summary: "Delete a budget",
    scope: "admin",
    query: { id: "budget id" },
  },
  {
    method: "get",
    path: "/api/v1/keys",
    summary: "Stored provider keys (last 4 characters only)",
    scope: "admin",
  },
  {
    method: "put",
    path: "/api/v1/keys",
    summary: "Store or replace a provider key (encrypted at rest)",
    scope: "admin",
    body: setKeyInput,
  },
  {
    method: "delete",
    path: "/api/v1/keys",
    summary: "Delete a provider key",
    scope: "admin",
    query: { provider: "provider id" },
  },
  {
    method: "get",
    path: "/api/v1/lenses",
    summary: "Lenses for web_search's `lens`: the workspace's own and the built-in ones",
    scope: "any",
    response: lensListResponse,
  },
  {
    method: "put",
    path: "/api/v1/lenses",
    summary: "Create or replace a lens (a built-in name makes it the workspace's own)",
    scope: "admin",
    body: setLensInput,
    response: lensResponse,
  },
  {
    method: "delete",
    path: "/api/v1/lenses",
    summary: "Delete a workspace lens (a built-in lens it replaced comes back)",
    scope: "admin",
    query: { name: "lens name" },
  },
  {
    method: "get",
    path: "/api/v1/tokens",
    summary: "The workspace's API tokens (never the secrets)",
    scope: "admin",
  },
  {
    method: "post",
    path: "/api/v1/tokens",
    summary: "Create a token; the secret is in the response once",
    scope: "admin",
    body: createTokenInput,
  },
  {
    method: "delete",
    path: "/api/v1/tokens",
    summary: "Revoke a token (refused everywhere at once)",
    scope: "admin",
    query: { id: "token id" },
  },
  {
    method: "get",
    path: "/api/v1/traces",
    summary: "Traces, newest first (admins: all; other tokens: their own)",
    scope: "any",
    query: Object.fromEntries(Object.keys(listTracesInput.shape).map((k) => [k, `${k} filter`])),
  },
  { method: "get", path: "/api/v1/traces/{id}", summary: "One trace with its spans", scope: "any" },
  {
    method: "post",
    path: "/api/mcp",
    summary: "MCP (Streamable HTTP, stateless): JSON-RPC over POST; token needs the mcp scope",
    scope: "mcp",
  },
  {
    method: "get",
    path: "/api/researcher",
    summary:
      "GPT-Researcher custom retriever: ?query= → [{href, body, url, raw_content}]; token also as ?api_key=",
    scope: "search",
    query: { query: "search query", max_results: "results", api_key: "token (alternative to the header)" },
  },
  {
    method: "post",
    path: "/api/researcher",
    summary: "GPT-Researcher custom retriever, JSON body {query, max_results}",
    scope: "search",
  },
  {
    method: "post",
    path: "/api/search",
    summary: "Open WebUI external web search: {query, count} → [{link, title, snippet}]",
    scope: "search",
  },
  {
    method: "get",
    path: "/api/health",
    summary: "Liveness of database, KV and providers (no authentication)",
    scope: null,
  },
  { method: "get", path: "/api/openapi.json", summary: "This document", scope: null },
];

const schema = (type: z.ZodType, io: "input" | "output") => {
  const { $schema: _, ...json } = z.toJSONSchema(type, { io, unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
  return json;
};

const ERRORS: Record<string, string> = {
  "400": "Invalid input (also unknown fields)",
  "401": "Missing, invalid, expired or revoked token",
  "402": "Budget exhausted (which budgets, and when they reset)",
  "403": "The token lacks the scope",
  "404": "Not found (also another workspace's ids)",
  "413": "Body over 256 KB",
  "429": "Rate limited (Retry-After)",
  "502": "Every provider failed (with each reason)",
  "503": "No provider available",
};

function operationObject(op: Operation) {
  const parameters = [
    ...(op.path.includes("{id}")
      ? [{ name: "id", in: "path", required: true, schema: { type: "string" } }]
      : []),
    ...Object.entries(op.query ?? {}).map(([name, description]) => ({
      name,
      in: "query",
      description,
      schema: { type: "string" },
    })),
  ];
  return {
    summary: op.summary,
    ...(op.scope === null
      ? { security: [] }
      : { description: `Token scope: ${op.scope === "any" ? "any" : op.scope}` }),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(op.body
      ? {
          requestBody: {
            required: true,
            content: { "application/json": { schema: schema(op.body, "input") } },
          },
        }
      : {}),
    responses: {
      "200": {
        description: "OK",
        content: { "application/json": { schema: op.response ? schema(op.response, "output") : open } },
      },
      ...(op.scope === null
        ? {}
        : Object.fromEntries(
            Object.entries(ERRORS).map(([status, description]) => [
              status,
              {
                description,
                content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
              },
            ]),
          )),
    },
  };
}

export function openApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of OPERATIONS) {
    paths[op.path] ??= {};
    (paths[op.path] as Record<string, unknown>)[op.method] = operationObject(op);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Searchmux",
      version: packageJson.version,
      description:
        "A search gateway for AI agents: fused web search, fetch, answers and papers over many providers.",
    },
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "An API token (smx_…)" } },
      schemas: {
        Error: {
          type: "object",
          required: ["error"],
          properties: {
            error: {
              type: "object",
              required: ["code", "message"],
              properties: { code: { type: "string" }, message: { type: "string" }, details: {} },
            },
          },
        },
      },
    },
    paths,
  };
}
