/**
 * Transport: the JSON the REST routes outside the tool table answer (and the compatibility endpoints'
 * loosely typed requests), as zod schemas for the OpenAPI document. Shapes a tool already publishes
 * (lib/tools/responses.ts) are reused. Objects are closed (additionalProperties: false in the document), so
 * `tests/integration/api/openapi-responses.test.ts` fails when a route answers a field its schema lacks.
 */
import { z } from "zod";
import { SCOPES } from "@/lib/pipeline/context";
import { connectionProfileInput } from "@/lib/services/tokens/connection-profile";
import { budgetStatusResponse, freeTierStatus } from "@/lib/tools/responses";

const instant = z.iso.datetime().describe("ISO 8601 date-time (UTC)");
const metric = z.enum(["requests", "usd"]);
const period = z.enum(["day", "month", "lifetime"]);
const scopes = z.array(z.enum(SCOPES));

export const budgetListResponse = z.object({ budgets: budgetStatusResponse.shape.budgets });

export const budgetSetResponse = z.object({
  id: z.uuid(),
  provider: z.string(),
  metric,
  period,
  limit: z.number(),
  soft: z.number().nullable(),
});

export const budgetDeleteResponse = z.object({ id: z.uuid(), deleted: z.literal(true) });

export const settingsResponse = z.object({
  name: z.string(),
  rate_limit_rpm: z.number().nullable().describe("null: the operator's default"),
  trace_retention_days: z.number(),
  grounded_snippets: z.boolean(),
  default_search_mode: z
    .enum(["fanout", "auto", "budget"])
    .describe("The mode of a web_search that names neither mode nor providers"),
});

const keyStatus = z
  .enum(["ok", "invalid", "unknown"])
  .describe("The provider's verdict on the key at its last test (unknown until tested)");

export const keySetResponse = z.object({ provider: z.string(), last4: z.string(), status: keyStatus });

export const keyListResponse = z.object({
  keys: z.array(
    z.object({
      provider: z.string(),
      last4: z.string(),
      status: keyStatus,
      checkedAt: instant.nullable(),
      quotaUntil: instant
        .nullable()
        .describe(
          "While the provider refuses the key for its quota, credit or payment limit: until when calls skip it (quota_exhausted)",
        ),
      updatedAt: instant,
      endpoint: z
        .object({
          host: z.string().describe("The base URL's host (and port)"),
          model: z.string(),
          price_per_mtok: z
            .object({ input: z.number(), output: z.number() })
            .describe("USD per million tokens"),
        })
        .nullable()
        .describe("What the workspace model (workspace_llm) was stored with; null for other providers"),
    }),
  ),
});

export const keyDeleteResponse = z.object({ provider: z.string(), deleted: z.literal(true) });

export const lensDeleteResponse = z.object({ name: z.string(), deleted: z.literal(true) });

export const tokenListResponse = z.object({
  tokens: z.array(
    z.object({
      id: z.uuid(),
      name: z.string(),
      scopes,
      profile: connectionProfileInput,
      displayStart: z.string().describe("The token's first characters, to recognise it"),
      last4: z.string(),
      createdAt: instant,
      createdBy: z.string().nullable().describe("The member who created it; null for the operator's"),
      createdByName: z.string().nullable(),
      lastUsedAt: instant.nullable(),
      expiresAt: instant.nullable(),
      revokedAt: instant.nullable(),
    }),
  ),
});

export const tokenCreatedResponse = z.object({
  id: z.uuid(),
  name: z.string(),
  scopes,
  profile: connectionProfileInput,
  token: z.string().describe("The secret (smx_…): in this response only, never again"),
  createdAt: instant,
  expiresAt: instant.nullable(),
});

export const tokenRevokeResponse = z.object({ id: z.uuid(), revoked: z.literal(true) });

export const tokenProfileResponse = z.object({ id: z.uuid(), profile: connectionProfileInput });

const traceFields = {
  id: z.uuid(),
  tool: z.string(),
  surface: z.enum(["mcp", "rest", "playground", "cli"]),
  token_name: z.string().nullable(),
  user_id: z.string().nullable().describe("The member the call was made for (their token or session)"),
  user_name: z.string().nullable(),
  status: z.enum(["ok", "partial", "error"]),
  duration_ms: z.number(),
  cache_hit: z.boolean(),
  summary: z.record(z.string(), z.unknown()).describe("What the call returned, in brief"),
  error: z.string().nullable(),
  created_at: instant,
  cost_usd: z.number(),
};

export const auditListResponse = z.object({
  entries: z.array(
    z.object({
      id: z.uuid(),
      action: z.string().describe("`<area>.<verb>`, e.g. `token.create`"),
      target_type: z.string(),
      target_id: z.string().nullable(),
      created_at: instant,
      actor: z.object({
        via: z
          .enum(["session", "token", "connected_app", "oauth_client", "operator"])
          .describe("How the change was made"),
        user_id: z.string().nullable().describe("The member behind it (their session or token)"),
        user_name: z.string().nullable(),
        token_id: z.string().nullable(),
        token_name: z.string().nullable(),
        connection_id: z.string().nullable().describe("The connected app whose access token made it"),
        client_id: z.string().nullable().describe("The OAuth client of that connected app"),
      }),
      details: z.record(z.string(), z.unknown()).describe("What changed (names, scopes; never secrets)"),
    }),
  ),
  next_cursor: z.string().nullable().describe("`cursor` of the next page; null on the last"),
});

export const traceListResponse = z.object({
  traces: z.array(z.object(traceFields)),
  next_cursor: z.string().nullable().describe("`cursor` of the next page; null on the last"),
});

export const traceResponse = z.object({
  ...traceFields,
  input: z.record(z.string(), z.unknown()).describe("The call's input (secrets redacted)"),
  spans: z.array(
    z.object({
      provider: z.string(),
      kind: z.string().describe("search, fetch, answer, papers or llm"),
      outcome: z.string().describe("ok, or why the attempt failed"),
      status: z.number().nullable().describe("The provider's HTTP status"),
      start_offset_ms: z.number(),
      duration_ms: z.number(),
      bytes: z.number().nullable(),
      cost_usd: z.number(),
      error: z.string().nullable(),
    }),
  ),
});

const amount = z.object({ requests: z.number(), usd: z.number() });

export const usageHistoryResponse = z.object({
  days: z.array(
    z.object({
      date: z.iso.date(),
      requests: z.number(),
      usd: z.number(),
      calls: z.number(),
      cache_hits: z.number(),
      tools: z.record(z.string(), z.number()).describe("Tool calls by tool; tools without calls left out"),
      providers: z.record(z.string(), amount),
    }),
  ),
});

const providerBudgets = z.array(
  z.object({
    metric,
    period,
    limit: z.number(),
    used: z.number(),
    remaining: z.number(),
    resets_at: instant.nullable(),
  }),
);

export const providerStatusResponse = z.object({
  providers: z.array(
    z.object({
      provider: z.string(),
      name: z.string(),
      available: z.boolean(),
      tools: z.array(z.string()).describe("The tools it serves for this workspace now"),
      unavailable_reason: z.enum(["no_key", "no_base_url"]).nullable(),
      key_source: z.enum(["tenant", "operator", "not_needed", "missing"]).describe("Whose key pays"),
      key_status: keyStatus.nullable().describe("The workspace key's verdict; null for other key sources"),
      breaker: z.string().describe("This instance's circuit breaker: closed, open or half_open"),
      status: z.string().describe("healthy, degraded, failing, paused, probing or no_data"),
      health: z
        .object({
          provider: z.string(),
          calls: z.number(),
          success_rate: z.number(),
          p50_ms: z.number(),
          p95_ms: z.number(),
          status: z.string(),
        })
        .nullable()
        .describe("The last day's calls; null without any"),
      free_tier: freeTierStatus,
      budgets: providerBudgets,
    }),
  ),
  all_providers_budgets: providerBudgets.describe("The budgets on all providers together (provider *)"),
});

const partStatus = z.enum(["ok", "error"]);

export const healthResponse = z.object({
  status: z.enum(["ok", "degraded", "error"]).describe("error (503): the database cannot serve"),
  version: z.string(),
  db: partStatus,
  kv: partStatus,
  providers: partStatus,
  providers_available: z.array(z.string()).describe("Search providers usable without a workspace key"),
  reason: z.string().optional().describe("What is wrong, whenever status is not ok"),
});

export const readyResponse = z.object({
  status: z.enum(["ok", "error"]).describe("error (503): send this instance no traffic until it is ok again"),
  db: partStatus.describe("The database answered a query within 2 s"),
  kv: partStatus.describe("The KV store answered a round trip within 2 s"),
  secret_key: z
    .enum(["ok", "error", "unknown"])
    .describe("Whether SEARCHMUX_SECRET_KEY reads the stored data; unknown while the database cannot tell"),
  reason: z.string().optional().describe("Every failed part and why, whenever status is error"),
});

/** Open WebUI's external web search. */
export const openWebUiSearchBody = z.object({
  query: z.string(),
  count: z
    .union([z.number().int(), z.string()])
    .optional()
    .describe("How many results (a number or numeric string)"),
});
export const openWebUiSearchResponse = z.array(
  z.object({ link: z.string(), title: z.string(), snippet: z.string() }),
);

/** GPT-Researcher's custom retriever: the query string, or the same fields as a JSON body. */
export const researcherQuery = z.object({
  query: z.string().describe("Search query"),
  max_results: z.string().optional().describe("How many results"),
  api_key: z.string().optional().describe("The API token, when not sent as a Bearer header"),
});
export const researcherBody = z.object({
  query: z.string(),
  max_results: z.union([z.number().int(), z.string()]).optional(),
});
export const researcherResponse = z.array(
  z.object({
    href: z.string(),
    body: z.string(),
    url: z.string().describe("= href, the field GPT-Researcher reads"),
    raw_content: z.string().describe("= body, the field GPT-Researcher reads"),
    title: z.string(),
  }),
);

/** The document itself, and MCP's JSON-RPC: described elsewhere. */
const webhook = {
  id: z.uuid(),
  url: z.string(),
  events: z.array(z.string()).describe("The events it receives"),
  created_at: instant,
  paused_at: instant
    .nullable()
    .describe(
      "When it was paused after its receiver kept failing: only test events are sent, and a test's success resumes it",
    ),
  consecutive_failures: z.number().describe("Failed delivery attempts in a row"),
  dropped_events: z
    .number()
    .describe("Events not queued for it: paused, or over a limit of the outbox (docs/api.md, Webhooks)"),
  last_dropped_at: instant.nullable(),
};

export const webhookListResponse = z.object({ webhooks: z.array(z.object(webhook)) });

export const webhookCreatedResponse = z.object({
  ...webhook,
  secret: z
    .string()
    .describe(
      "The signing secret (whsec_…), shown this once: verify each delivery's webhook-signature with it",
    ),
});

export const webhookDeleteResponse = z.object({ deleted: z.literal(true) });

export const deliveryResponse = z.object({
  id: z.uuid(),
  message_id: z.string().describe("The webhook-id header the receiver saw, the same on every attempt"),
  event: z.string(),
  status: z.enum(["pending", "delivering", "succeeded", "failed"]),
  attempts: z.number(),
  last_status: z.number().nullable().describe("The receiver's HTTP status on the last attempt"),
  last_error: z.string().nullable(),
  last_response: z.string().nullable().describe("The start of the receiver's last answer (200 characters)"),
  created_at: instant,
  last_attempt_at: instant.nullable(),
  next_attempt_at: instant.nullable().describe("When a pending delivery is tried next"),
  delivered_at: instant.nullable(),
});

export const deliveryListResponse = z.object({
  webhook: z.object(webhook),
  deliveries: z.array(deliveryResponse),
});

export const openObject = z.looseObject({});
