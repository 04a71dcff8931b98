/**
 * The OpenAPI 3.1 document of the HTTP API, generated from the same zod schemas the verbs validate with
 * and the responses are projected onto — never written twice. The tools' operations come from the tool
 * table (lib/tools/table.ts); every other route has one entry here.
 */
import { z } from "zod";
import type { AllowedHost } from "@/lib/config";
import type { Scope } from "@/lib/pipeline/context";
import { listAuditInput } from "@/lib/services/audit/list-audit";
import { deleteBudgetInput } from "@/lib/services/budgets/delete-budget";
import { setBudgetInput } from "@/lib/services/budgets/set-budget";
import { deleteKeyInput } from "@/lib/services/keys/delete-key";
import { setKeyInput } from "@/lib/services/keys/set-key";
import { deleteLensInput } from "@/lib/services/lenses/delete-lens";
import { setLensInput } from "@/lib/services/lenses/set-lens";
import { workspaceSettingsInput } from "@/lib/services/tenants/workspace-settings";
import { createTokenInput } from "@/lib/services/tokens/create-token";
import { revokeTokenInput } from "@/lib/services/tokens/revoke-token";
import { setTokenProfileInput } from "@/lib/services/tokens/set-token-profile";
import { listTracesInput } from "@/lib/services/traces/list-traces";
import { usageHistoryInput } from "@/lib/services/usage/usage-history";
import { createWebhookInput } from "@/lib/services/webhooks/create-webhook";
import { listDeliveriesInput } from "@/lib/services/webhooks/list-deliveries";
import { crawlJobResponse, lensListResponse, lensResponse, researchJobResponse } from "@/lib/tools/responses";
import { TOOLS, TRACED_TOOL_NAMES } from "@/lib/tools/table";
import { estimateResponse, type Tool } from "@/lib/tools/tool";
import packageJson from "@/package.json";
import { foreignHostReason } from "./allowed-host";
import { API_DESCRIPTION } from "./openapi-description";
import {
  auditListResponse,
  budgetDeleteResponse,
  budgetListResponse,
  budgetSetResponse,
  deliveryListResponse,
  deliveryResponse,
  healthResponse,
  keyDeleteResponse,
  keyListResponse,
  keySetResponse,
  lensDeleteResponse,
  openObject,
  openWebUiSearchBody,
  openWebUiSearchResponse,
  providerStatusResponse,
  readyResponse,
  researcherBody,
  researcherQuery,
  researcherResponse,
  settingsResponse,
  tokenCreatedResponse,
  tokenListResponse,
  tokenProfileResponse,
  tokenRevokeResponse,
  traceListResponse,
  traceResponse,
  usageHistoryResponse,
  webhookCreatedResponse,
  webhookDeleteResponse,
  webhookListResponse,
} from "./route-schemas";

type Method = "get" | "post" | "put" | "patch" | "delete";

export interface Operation {
  method: Method;
  path: string;
  summary: string;
  /** Unique across the document; client generators name their methods after it. */
  operationId: string;
  /** Scope the token needs; `null` for routes without authentication. */
  scope: Scope | "any" | null;
  body?: z.ZodType;
  /** The query string: one parameter per field, with the field's schema. */
  query?: z.ZodObject;
  /** What a successful call answers (as JSON). */
  response: z.ZodType;
  /** The success status, when not 200: 201 Created, 202 Accepted (a job that goes on after the response). */
  status?: 201 | 202;
  /** Failures whose body is not the Error schema: their status and schema (health's 503). */
  failures?: Record<string, z.ZodType>;
  /**
   * Another success, with its status (a job tool's estimate: 200 while the job itself is 202; a crawl that
   * runs as a job: 202 while a synchronous crawl is 200).
   */
  alsoAnswers?: { status: 200 | 202; description: string; body: z.ZodType };
}

/** Every route that is not a tool's. */
const ROUTE_OPERATIONS: readonly Operation[] = [
  {
    method: "get",
    path: "/api/v1/crawl/{id}",
    operationId: "getCrawlJob",
    summary:
      "A crawl job's status, progress (pages read, queued) and pages so far; the whole result once done",
    scope: "fetch",
    response: crawlJobResponse,
  },
  {
    method: "delete",
    path: "/api/v1/crawl/{id}",
    operationId: "cancelCrawlJob",
    summary: "Cancels a queued or running crawl job; the pages read so far stay (409 when it already ended)",
    scope: "fetch",
    response: crawlJobResponse,
  },
  {
    method: "get",
    path: "/api/v1/webhooks",
    operationId: "listWebhooks",
    summary: "The workspace's webhooks (never their secrets)",
    scope: "admin",
    response: webhookListResponse,
  },
  {
    method: "post",
    path: "/api/v1/webhooks",
    operationId: "createWebhook",
    summary: "Registers a webhook for events; the answer carries its signing secret, once",
    scope: "admin",
    body: createWebhookInput,
    status: 201,
    response: webhookCreatedResponse,
  },
  {
    method: "delete",
    path: "/api/v1/webhooks/{id}",
    operationId: "deleteWebhook",
    summary: "Deletes a webhook and its delivery log",
    scope: "admin",
    response: webhookDeleteResponse,
  },
  {
    method: "post",
    path: "/api/v1/webhooks/{id}/test",
    operationId: "testWebhook",
    summary: "Queues a webhook.test event for the webhook and sends it (5 a minute)",
    scope: "admin",
    status: 202,
    response: deliveryResponse,
  },
  {
    method: "get",
    path: "/api/v1/webhooks/{id}/deliveries",
    operationId: "listWebhookDeliveries",
    summary: "The webhook's delivery log, newest first: status, attempts, the receiver's last answer",
    scope: "admin",
    query: listDeliveriesInput.omit({ id: true }),
    response: deliveryListResponse,
  },
  {
    method: "get",
    path: "/api/v1/research/{id}",
    operationId: "getResearch",
    summary: "A research job's status, progress and, once it succeeded, its cited report and sources",
    scope: "search",
    response: researchJobResponse,
  },
  {
    method: "delete",
    path: "/api/v1/research/{id}",
    operationId: "cancelResearch",
    summary: "Cancels a queued or running research job (409 when it already ended)",
    scope: "search",
    response: researchJobResponse,
  },
  {
    method: "get",
    path: "/api/v1/usage/history",
    operationId: "usageHistory",
    summary: "Requests, spend, tool calls and cache hits per UTC day (oldest first, no gaps)",
    scope: "any",
    query: usageHistoryInput,
    response: usageHistoryResponse,
  },
  {
    method: "get",
    path: "/api/v1/providers",
    operationId: "providerStatus",
    summary:
      "Every provider: tools it serves now, whose key pays and its verdict, budgets left, breaker, success rate and p50/p95",
    scope: "any",
    response: providerStatusResponse,
  },
  {
    method: "get",
    path: "/api/v1/budgets",
    operationId: "listBudgets",
    summary: "The workspace's budgets",
    scope: "admin",
    response: budgetListResponse,
  },
  {
    method: "put",
    path: "/api/v1/budgets",
    operationId: "setBudget",
    summary: "Create or replace the budget for (provider, metric, period)",
    scope: "admin",
    body: setBudgetInput,
    response: budgetSetResponse,
  },
  {
    method: "delete",
    path: "/api/v1/budgets",
    operationId: "deleteBudget",
    summary: "Delete a budget",
    scope: "admin",
    query: deleteBudgetInput,
    response: budgetDeleteResponse,
  },
  {
    method: "get",
    path: "/api/v1/settings",
    operationId: "getSettings",
    summary: "The workspace's settings",
    scope: "admin",
    response: settingsResponse,
  },
  {
    method: "patch",
    path: "/api/v1/settings",
    operationId: "updateSettings",
    summary: "Change workspace settings (the fields given), e.g. the default web_search mode",
    scope: "admin",
    body: workspaceSettingsInput,
    response: settingsResponse,
  },
  {
    method: "get",
    path: "/api/v1/keys",
    operationId: "listKeys",
    summary: "Stored provider keys (last 4 characters only; the workspace model's host, model and price)",
    scope: "admin",
    response: keyListResponse,
  },
  {
    method: "put",
    path: "/api/v1/keys",
    operationId: "setKey",
    summary:
      "Store or replace a provider key (encrypted at rest); the workspace model (workspace_llm) takes its base URL, model and price too",
    scope: "admin",
    body: setKeyInput,
    response: keySetResponse,
  },
  {
    method: "delete",
    path: "/api/v1/keys",
    operationId: "deleteKey",
    summary: "Delete a provider key",
    scope: "admin",
    query: deleteKeyInput,
    response: keyDeleteResponse,
  },
  {
    method: "get",
    path: "/api/v1/lenses",
    operationId: "listLenses",
    summary: "Lenses web_search takes as its lens: the workspace's own and the built-in ones",
    scope: "any",
    response: lensListResponse,
  },
  {
    method: "put",
    path: "/api/v1/lenses",
    operationId: "setLens",
    summary: "Create or replace a lens (a built-in name makes it the workspace's own)",
    scope: "admin",
    body: setLensInput,
    response: lensResponse,
  },
  {
    method: "delete",
    path: "/api/v1/lenses",
    operationId: "deleteLens",
    summary: "Delete a workspace lens (a built-in lens it replaced comes back)",
    scope: "admin",
    query: deleteLensInput,
    response: lensDeleteResponse,
  },
  {
    method: "get",
    path: "/api/v1/tokens",
    operationId: "listTokens",
    summary: "The workspace's API tokens (never the secrets)",
    scope: "admin",
    response: tokenListResponse,
  },
  {
    method: "post",
    path: "/api/v1/tokens",
    operationId: "createToken",
    summary: "Create a token; the secret is in the response once",
    scope: "admin",
    body: createTokenInput,
    response: tokenCreatedResponse,
    status: 201,
  },
  {
    method: "delete",
    path: "/api/v1/tokens",
    operationId: "revokeToken",
    summary: "Revoke a token (refused everywhere at once)",
    scope: "admin",
    query: revokeTokenInput,
    response: tokenRevokeResponse,
  },
  {
    method: "patch",
    path: "/api/v1/tokens/{id}",
    operationId: "setTokenProfile",
    summary:
      "Replace a token's profile: the tools it lists and may call, their default arguments (null: none)",
    scope: "admin",
    body: setTokenProfileInput.omit({ id: true }),
    response: tokenProfileResponse,
  },
  {
    method: "get",
    path: "/api/v1/audit",
    operationId: "listAudit",
    summary: "The workspace's audit log, newest first: who changed what, when, and through what",
    scope: "admin",
    query: listAuditInput,
    response: auditListResponse,
  },
  {
    method: "get",
    path: "/api/v1/traces",
    operationId: "listTraces",
    summary: "Traces, newest first (admins: all; other tokens: their own)",
    scope: "any",
    query: listTracesInput.extend({ tool: z.enum(TRACED_TOOL_NAMES).optional() }),
    response: traceListResponse,
  },
  {
    method: "get",
    path: "/api/v1/traces/{id}",
    operationId: "getTrace",
    summary: "One trace with its spans",
    scope: "any",
    response: traceResponse,
  },
  {
    method: "post",
    path: "/api/mcp",
    operationId: "mcp",
    summary: "MCP (Streamable HTTP, stateless): JSON-RPC over POST; token needs the mcp scope",
    scope: "mcp",
    response: openObject,
  },
  {
    method: "get",
    path: "/api/researcher",
    operationId: "researcherRetrieve",
    summary:
      "GPT-Researcher custom retriever: ?query= → [{href, body, url, raw_content}]; token also as ?api_key=",
    scope: "search",
    query: researcherQuery,
    response: researcherResponse,
  },
  {
    method: "post",
    path: "/api/researcher",
    operationId: "researcherRetrievePost",
    summary: "GPT-Researcher custom retriever, JSON body {query, max_results}",
    scope: "search",
    body: researcherBody,
    response: researcherResponse,
  },
  {
    method: "post",
    path: "/api/search",
    operationId: "openWebUiSearch",
    summary: "Open WebUI external web search: {query, count} → [{link, title, snippet}]",
    scope: "search",
    body: openWebUiSearchBody,
    response: openWebUiSearchResponse,
  },
  {
    method: "get",
    path: "/api/health",
    operationId: "health",
    summary: "Liveness of database, KV and providers (no authentication)",
    scope: null,
    response: healthResponse,
    failures: { "503": healthResponse },
  },
  {
    method: "get",
    path: "/api/ready",
    operationId: "ready",
    summary:
      "Readiness: whether to send this instance traffic (database, KV, key-encryption keys; no authentication)",
    scope: null,
    response: readyResponse,
    failures: { "503": readyResponse },
  },
  {
    method: "get",
    path: "/api/openapi.json",
    operationId: "openApiDocument",
    summary: "This document",
    scope: null,
    response: openObject,
  },
];

/**
 * A tool's operation: its REST route, scope, input (body or query) and response, from the table; with
 * `estimate: true` every tool answers 200 with its estimate instead.
 */
function toolOperation({ rest, scope, inputSchema, outputSchema, background }: Tool): Operation {
  const estimate = "With estimate: true: which providers the call would ask and the most it could cost";
  // A tool whose larger calls are jobs (crawl): 200 for a synchronous call, 202 with the job for the others.
  if (background?.when) {
    return {
      method: rest.method,
      path: rest.path,
      operationId: rest.operationId,
      summary: rest.summary,
      scope: scope ?? "any",
      body: inputSchema,
      response: z.union([outputSchema, estimateResponse.describe(estimate)]),
      alsoAnswers: {
        status: 202,
        description: "The call runs as a job (its status route)",
        body: crawlJobResponse,
      },
    };
  }
  return {
    method: rest.method,
    path: rest.path,
    operationId: rest.operationId,
    summary: rest.summary,
    scope: scope ?? "any",
    ...(rest.method === "post" ? { body: inputSchema } : { query: inputSchema }),
    ...(background
      ? {
          status: 202 as const,
          response: outputSchema,
          alsoAnswers: { status: 200, description: `${estimate} (no job is queued)`, body: estimateResponse },
        }
      : { response: z.union([outputSchema, estimateResponse.describe(estimate)]) }),
  };
}

/** Every operation: the tools' first, in the table's order. */
export const OPERATIONS: readonly Operation[] = [...TOOLS.map(toolOperation), ...ROUTE_OPERATIONS];

type JsonSchema = Record<string, unknown>;

const schema = (type: z.ZodType, io: "input" | "output"): JsonSchema => {
  const { $schema: _, ...json } = z.toJSONSchema(type, { io, unrepresentable: "any" }) as JsonSchema;
  return json;
};

/** A token route's failures, all with the Error body. */
const ERRORS: Record<string, string> = {
  "400": "Invalid input (also unknown fields)",
  "401": "Missing, invalid, expired or revoked token",
  "402": "Budget exhausted (which budgets, and when they reset)",
  "403": "The token lacks the scope",
  "404": "Not found (also another workspace's ids; fetch and crawl: a page its site answered 404 or 410 for)",
  "409": "Conflicts with the current state (a research job that already ended)",
  "413": "Body over 256 KB",
  "429": "Rate limited (Retry-After)",
  "502": "Every provider failed (with each reason)",
  "503": "No provider available",
};

const errorContent = { "application/json": { schema: { $ref: "#/components/schemas/Error" } } };

/** The query string's fields as parameters, each with its field's schema and description. */
function queryParameters(query: z.ZodObject) {
  const object = schema(query, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(object.properties ?? {}).map(([name, { description, ...field }]) => ({
    name,
    in: "query",
    required: object.required?.includes(name) ?? false,
    ...(typeof description === "string" ? { description } : {}),
    schema: field,
  }));
}

function operationObject(op: Operation) {
  const parameters = [
    ...(op.path.includes("{id}")
      ? [{ name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } }]
      : []),
    ...(op.query ? queryParameters(op.query) : []),
  ];
  const errors =
    op.scope === null
      ? {}
      : Object.fromEntries(
          Object.entries(ERRORS).map(([status, description]) => [
            status,
            { description, content: errorContent },
          ]),
        );
  const failures = Object.fromEntries(
    Object.entries(op.failures ?? {}).map(([status, body]) => [
      status,
      { description: "Failed", content: { "application/json": { schema: schema(body, "output") } } },
    ]),
  );
  return {
    operationId: op.operationId,
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
      [String(op.status ?? 200)]: {
        description: { 200: "OK", 201: "Created", 202: "Accepted" }[op.status ?? 200],
        content: { "application/json": { schema: schema(op.response, "output") } },
      },
      ...(op.alsoAnswers && {
        [String(op.alsoAnswers.status)]: {
          description: op.alsoAnswers.description,
          content: { "application/json": { schema: schema(op.alsoAnswers.body, "output") } },
        },
      }),
      ...errors,
      ...failures,
      default: {
        description: "Any other failure (500: an internal error, with its request id)",
        content: errorContent,
      },
    },
  };
}

/**
 * Where the API is served, for `servers`: AUTH_URL when set, else the origin the request came to when its
 * Host is one this deployment answers (a forged Host could otherwise plant its URL in a cached document),
 * else "/" — relative to wherever the document was read from.
 */
export function apiServerUrl(
  request: Request,
  { publicUrl, allowedHosts }: { publicUrl?: string; allowedHosts: readonly AllowedHost[] },
): string {
  if (publicUrl) return publicUrl.replace(/\/$/, "");
  const host = request.headers.get("host");
  if (host === null || foreignHostReason(host, allowedHosts) !== null) return "/";
  return `${new URL(request.url).protocol}//${host}`;
}

/** `serverUrl`: where the API is served (apiServerUrl); relative to the document's own origin by default. */
export function openApiDocument(serverUrl = "/") {
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
      description: API_DESCRIPTION,
    },
    servers: [{ url: serverUrl }],
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
