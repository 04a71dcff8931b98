/**
 * The whole data model in one place.
 *
 * Isolation: every tenant-owned table carries `tenant_id` (leading in its indexes) and has Row Level
 * Security with two policies: `tenant_isolation` for the `searchmux_app` role (rows of the tenant set
 * per transaction in `searchmux.tenant_id`) and `system_access` for the `searchmux_system` role (the
 * few cross-tenant operations: sign-in, token verification, pruning). The roles, FORCE and grants are
 * in the hand-written migrations next to the generated ones (drizzle/0000_roles.sql, 0002_force_rls.sql).
 *
 * Money is stored as integer micro-dollars (1 USD = 1,000,000) so budget arithmetic stays exact.
 */
import { type SQL, sql } from "drizzle-orm";
import {
  type AnyPgColumn,
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgEnum,
  pgPolicy,
  pgRole,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";

export const appRole = pgRole("searchmux_app").existing();
export const systemRole = pgRole("searchmux_system").existing();

const currentTenant = sql`current_tenant_id()`;

/** Full access for the system role; used by every table. */
const systemAccess = pgPolicy("system_access", { to: systemRole, using: sql`true`, withCheck: sql`true` });

/** The policy pair every tenant-owned table gets. */
function tenantPolicies(tenantId: AnyPgColumn) {
  const own: SQL = sql`${tenantId} = ${currentTenant}`;
  return [pgPolicy("tenant_isolation", { to: appRole, using: own, withCheck: own }), systemAccess];
}

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const tenantRef = () =>
  uuid("tenant_id")
    .notNull()
    .references(() => tenants.id, { onDelete: "cascade" });

// ---------------------------------------------------------------------------------------------
// next-auth (v4 adapter tables). Accessed in system mode only; the app role may read the users who
// are members of its tenant.

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name"),
    email: text("email").unique(),
    emailVerified: timestamp("email_verified", { withTimezone: true }),
    image: text("image"),
    createdAt: createdAt(),
  },
  (t) => [
    pgPolicy("tenant_members", {
      to: appRole,
      for: "select",
      using: sql`exists (select 1 from memberships m where m.user_id = ${t.id})`,
    }),
    systemAccess,
  ],
);

export const accounts = pgTable(
  "accounts",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    provider: text("provider").notNull(),
    providerAccountId: text("provider_account_id").notNull(),
    refreshToken: text("refresh_token"),
    accessToken: text("access_token"),
    expiresAt: integer("expires_at"),
    tokenType: text("token_type"),
    scope: text("scope"),
    idToken: text("id_token"),
    sessionState: text("session_state"),
  },
  (t) => [
    primaryKey({ columns: [t.provider, t.providerAccountId] }),
    index("accounts_user_idx").on(t.userId),
    systemAccess,
  ],
);

export const sessions = pgTable(
  "sessions",
  {
    sessionToken: text("session_token").primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expires: timestamp("expires", { withTimezone: true }).notNull(),
  },
  (t) => [index("sessions_user_idx").on(t.userId), systemAccess],
);

export const verificationTokens = pgTable(
  "verification_tokens",
  {
    identifier: text("identifier").notNull(),
    token: text("token").notNull(),
    expires: timestamp("expires", { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.identifier, t.token] }), systemAccess],
);

// ---------------------------------------------------------------------------------------------
// Tenancy

/** What a web_search that names neither `mode` nor `providers` runs as (lib/engine/search/input.ts). */
export const defaultSearchMode = pgEnum("default_search_mode", ["fanout", "auto", "budget"]);

export const tenants = pgTable(
  "tenants",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    /** IANA zone used for day/month budget periods; UTC unless the tenant chooses otherwise. */
    timezone: text("timezone").notNull().default("UTC"),
    traceRetentionDays: integer("trace_retention_days").notNull().default(30),
    /** Per-token requests per minute; null = the operator default (SEARCHMUX_RATE_LIMIT_RPM). */
    rateLimitRpm: integer("rate_limit_rpm"),
    /** web_search writes grounded snippets unless a call says otherwise. */
    groundedSnippets: boolean("grounded_snippets").notNull().default(false),
    /** New workspaces search in auto mode; those from before it (migration 0012) keep fanout. */
    defaultSearchMode: defaultSearchMode("default_search_mode").notNull().default("auto"),
    createdAt: createdAt(),
  },
  (t) => [
    pgPolicy("tenant_isolation", { to: appRole, using: sql`${t.id} = ${currentTenant}` }),
    systemAccess,
  ],
);

export const membershipRole = pgEnum("membership_role", ["owner", "admin", "member"]);

export const memberships = pgTable(
  "memberships",
  {
    tenantId: tenantRef(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: membershipRole("role").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.userId] }),
    index("memberships_user_idx").on(t.userId),
    ...tenantPolicies(t.tenantId),
  ],
);

/**
 * A connection's profile (a token's, or a connected app's on its grant): the tools it lists and may call, a
 * subset of what its scopes allow, and default arguments per tool, each checked against the tool's input
 * schema when saved (lib/tools/profile.ts). Null: every tool of its scopes, no defaults.
 */
export interface ConnectionProfile {
  tools?: string[];
  defaults?: Record<string, Record<string, unknown>>;
}

export const apiTokens = pgTable(
  "api_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    name: text("name").notNull(),
    scopes: text("scopes").array().notNull(),
    /** SHA-256 of the whole token, hex. The token itself is never stored. */
    tokenHash: text("token_hash").notNull(),
    displayStart: text("display_start").notNull(),
    last4: text("last4").notNull(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /** An OAuth access token: the grant (connected app) that issued it; null for tokens people create. */
    grantId: uuid("grant_id").references((): AnyPgColumn => oauthGrants.id, { onDelete: "cascade" }),
    /** The resource (RFC 8707) an OAuth access token is for; null for tokens people create. */
    audience: text("audience"),
    /** Null for an OAuth access token: its grant's profile applies. */
    profile: jsonb("profile").$type<ConnectionProfile>(),
  },
  (t) => [
    uniqueIndex("api_tokens_hash_idx").on(t.tokenHash),
    index("api_tokens_tenant_idx").on(t.tenantId, t.createdAt),
    index("api_tokens_grant_idx").on(t.grantId),
    ...tenantPolicies(t.tenantId),
  ],
);

export const keyStatus = pgEnum("key_status", ["ok", "invalid", "unknown"]);

export const providerKeys = pgTable(
  "provider_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    provider: text("provider").notNull(),
    /** AES-256-GCM; AAD binds tenant + provider + row id. */
    ciphertext: text("ciphertext").notNull(),
    iv: text("iv").notNull(),
    tag: text("tag").notNull(),
    keyVersion: smallint("key_version").notNull(),
    last4: text("last4").notNull(),
    /**
     * Non-secret settings stored with the key, for a provider each workspace configures itself (the workspace
     * model: `{base_url, model, price_per_mtok: {input, output}}`); null for every other provider.
     */
    settings: jsonb("settings"),
    status: keyStatus("status").notNull().default("unknown"),
    checkedAt: timestamp("checked_at", { withTimezone: true }),
    /**
     * Until when the provider refused the key for its quota, credit or payment limit (the key is skipped
     * meanwhile); null when it never did, or since the key was replaced.
     */
    quotaUntil: timestamp("quota_until", { withTimezone: true }),
    /**
     * Which key this is, without it: HMAC-SHA256 under the key-encryption key (lib/pipeline/keys/key-fingerprint.ts);
     * null for a key stored before fingerprints.
     */
    fingerprint: text("fingerprint"),
    /**
     * The fingerprint of the key last reported invalid (the key.invalid event, drizzle/0021): the same key
     * stored again and refused again is not reported again. Cleared when a key is found working (ok).
     */
    invalidReported: text("invalid_reported"),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("provider_keys_tenant_provider_idx").on(t.tenantId, t.provider),
    ...tenantPolicies(t.tenantId),
  ],
);

export const budgetMetric = pgEnum("budget_metric", ["requests", "usd"]);
export const budgetPeriod = pgEnum("budget_period", ["day", "month", "lifetime"]);

export const budgets = pgTable(
  "budgets",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    /** A provider id, or `*` for all providers together. */
    provider: text("provider").notNull(),
    metric: budgetMetric("metric").notNull(),
    period: budgetPeriod("period").notNull(),
    /** Requests, or micro-dollars for the usd metric. */
    hardLimit: bigint("hard_limit", { mode: "number" }).notNull(),
    softLimit: bigint("soft_limit", { mode: "number" }),
    /** Day of month a monthly period starts on (clamped to the month's last day). */
    anchorDay: smallint("anchor_day").notNull().default(1),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("budgets_scope_idx").on(t.tenantId, t.provider, t.metric, t.period),
    ...tenantPolicies(t.tenantId),
  ],
);

/** The truth for budgets: one row per (tenant, provider, metric, period); a new period is a new row. */
export const usageCounters = pgTable(
  "usage_counters",
  {
    tenantId: tenantRef(),
    provider: text("provider").notNull(),
    metric: budgetMetric("metric").notNull(),
    /** e.g. `day:2026-11-22`, `month:2026-11`, `lifetime`. */
    periodKey: text("period_key").notNull(),
    used: bigint("used", { mode: "number" }).notNull().default(0),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.provider, t.metric, t.periodKey] }),
    ...tenantPolicies(t.tenantId),
  ],
);

export const reservationStatus = pgEnum("reservation_status", ["reserved", "settled", "released"]);

/** One counter row a reservation charged: [provider or "*", metric, period key, amount]. */
export type Charge = [provider: string, metric: "requests" | "usd", periodKey: string, amount: number];

/**
 * Every admitted provider call: the counters a budget limits are charged up front, then settled (kept)
 * or released (refunded) after the call. `charges` records exactly which counter rows were charged, so
 * a refund after a period boundary touches the same rows. `deferredCharges` are the counters no budget
 * limits: they only record usage, so they are added when the call settles, in batches (usage-sink.ts),
 * instead of making concurrent admissions queue on the same rows.
 */
export const reservations = pgTable(
  "reservations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    idempotencyKey: text("idempotency_key").notNull(),
    provider: text("provider").notNull(),
    charges: jsonb("charges").$type<Charge[]>().notNull(),
    deferredCharges: jsonb("deferred_charges").$type<Charge[]>().notNull().default([]),
    /** Cost reserved, in micro-dollars. */
    amount: bigint("amount", { mode: "number" }).notNull(),
    status: reservationStatus("status").notNull().default("reserved"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    settledAt: timestamp("settled_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("reservations_idempotency_idx").on(t.tenantId, t.idempotencyKey),
    index("reservations_expiry_idx").on(t.tenantId, t.status, t.expiresAt),
    ...tenantPolicies(t.tenantId),
  ],
);

/** Soft-limit crossings and exhaustions, recorded once per budget and period for the dashboard. */
export const budgetAlertKind = pgEnum("budget_alert_kind", ["soft_limit", "exhausted"]);

export const budgetAlerts = pgTable(
  "budget_alerts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    budgetId: uuid("budget_id")
      .notNull()
      .references(() => budgets.id, { onDelete: "cascade" }),
    kind: budgetAlertKind("kind").notNull(),
    periodKey: text("period_key").notNull(),
    used: bigint("used", { mode: "number" }).notNull(),
    limit: bigint("limit", { mode: "number" }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("budget_alerts_once_idx").on(t.tenantId, t.budgetId, t.kind, t.periodKey),
    ...tenantPolicies(t.tenantId),
  ],
);

export const invitations = pgTable(
  "invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    email: text("email").notNull(),
    role: membershipRole("role").notNull(),
    /** SHA-256 of the invitation secret in the link. */
    tokenHash: text("token_hash").notNull(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    /** Revoked by an admin, or with its inviter's removal or demotion: the link no longer works. */
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("invitations_token_idx").on(t.tokenHash),
    index("invitations_tenant_idx").on(t.tenantId, t.createdAt),
    ...tenantPolicies(t.tenantId),
  ],
);

/** Search options a lens sets unless the call sets them itself. */
export interface LensDefaults {
  time_range?: "day" | "week" | "month" | "year";
  region?: string;
  safesearch?: "off" | "moderate" | "strict";
}

/** A tenant's named domain set for web_search (`lens: "name"`); overrides a built-in lens of the same name. */
export const lenses = pgTable(
  "lenses",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    domains: text("domains").array().notNull(),
    defaults: jsonb("defaults").$type<LensDefaults>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("lenses_tenant_name_idx").on(t.tenantId, t.name), ...tenantPolicies(t.tenantId)],
);

// ---------------------------------------------------------------------------------------------
// OAuth (MCP authorization): Searchmux is its own authorization server. A grant is one connected app
// (a client a member approved for a workspace); its access tokens are api_tokens rows (grant_id,
// audience), its refresh tokens rotate, and presenting a rotated one revokes the grant.

export const oauthClientKind = pgEnum("oauth_client_kind", ["registered", "metadata_document"]);

/**
 * OAuth clients: registered (RFC 7591; id `smxc_…`) or known by a Client ID Metadata Document (id = the
 * document's HTTPS URL; the row caches the document). Nobody's: the system role only.
 */
export const oauthClients = pgTable(
  "oauth_clients",
  {
    id: text("id").primaryKey(),
    kind: oauthClientKind("kind").notNull(),
    name: text("name").notNull(),
    clientUri: text("client_uri"),
    redirectUris: text("redirect_uris").array().notNull(),
    /** `none` (a public client) or how a registered confidential client authenticates at the token endpoint. */
    tokenEndpointAuthMethod: text("token_endpoint_auth_method").notNull(),
    /** SHA-256 of a registered confidential client's secret, hex. */
    secretHash: text("secret_hash"),
    createdAt: createdAt(),
    /**
     * Forgotten (deleted) after this unless used again: each authorization and refresh moves it on. The token
     * and revocation endpoints know a client until then, a metadata document's one as stored at consent.
     */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** Metadata document: when the consent page fetches the document again (its Cache-Control). */
    documentExpiresAt: timestamp("document_expires_at", { withTimezone: true }),
  },
  (t) => [index("oauth_clients_kind_expiry_idx").on(t.kind, t.expiresAt), systemAccess],
);

/** A connected app: what a member approved for a client in one workspace. */
export const oauthGrants = pgTable(
  "oauth_grants",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    clientId: text("client_id")
      .notNull()
      .references(() => oauthClients.id, { onDelete: "cascade" }),
    /** The member who approved it; their tokens answer to them (api_tokens.created_by). */
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    scopes: text("scopes").array().notNull(),
    /** The resource (RFC 8707) its access tokens are for: their audience. */
    resource: text("resource").notNull(),
    /** What its access tokens list and call, and their default arguments (ConnectionProfile). */
    profile: jsonb("profile").$type<ConnectionProfile>(),
    createdAt: createdAt(),
    /** The latest use of its access tokens that were since deleted (expired ones go at each refresh). */
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [index("oauth_grants_tenant_idx").on(t.tenantId, t.createdAt), ...tenantPolicies(t.tenantId)],
);

/** Authorization codes: single use, short-lived, bound to the client, redirect URI and PKCE challenge. */
export const oauthCodes = pgTable(
  "oauth_codes",
  {
    /** SHA-256 of the code, hex. */
    codeHash: text("code_hash").primaryKey(),
    tenantId: tenantRef(),
    clientId: text("client_id")
      .notNull()
      .references(() => oauthClients.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    redirectUri: text("redirect_uri").notNull(),
    /** PKCE S256 challenge (RFC 7636). */
    codeChallenge: text("code_challenge").notNull(),
    scopes: text("scopes").array().notNull(),
    resource: text("resource").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    /** The grant its exchange created: exchanging the code again revokes it. */
    grantId: uuid("grant_id").references(() => oauthGrants.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (t) => [index("oauth_codes_expiry_idx").on(t.expiresAt), ...tenantPolicies(t.tenantId)],
);

/** Refresh tokens, one family per grant: each is exchanged once for a new pair (rotation). */
export const oauthRefreshTokens = pgTable(
  "oauth_refresh_tokens",
  {
    /** SHA-256 of the token, hex. */
    tokenHash: text("token_hash").primaryKey(),
    tenantId: tenantRef(),
    grantId: uuid("grant_id")
      .notNull()
      .references(() => oauthGrants.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** Set when exchanged: presenting it again is reuse, which revokes the grant. */
    rotatedAt: timestamp("rotated_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index("oauth_refresh_tokens_grant_idx").on(t.tenantId, t.grantId), ...tenantPolicies(t.tenantId)],
);

// ---------------------------------------------------------------------------------------------
// Traces

export const traceSurface = pgEnum("trace_surface", ["mcp", "rest", "playground", "cli"]);
export const traceStatus = pgEnum("trace_status", ["ok", "partial", "error"]);
export const spanKind = pgEnum("span_kind", ["search", "fetch", "answer", "papers", "llm"]);
export const spanOutcome = pgEnum("span_outcome", [
  "ok",
  "empty",
  "error",
  "timeout",
  "skipped_budget",
  "skipped_breaker",
  "cache_hit",
  "skipped_rate_limit",
  "skipped_quota",
]);

export const traces = pgTable(
  "traces",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    tool: text("tool").notNull(),
    surface: traceSurface("surface").notNull(),
    tokenId: uuid("token_id").references(() => apiTokens.id, { onDelete: "set null" }),
    /** The token's name at the time of the call (never the secret). */
    tokenName: text("token_name"),
    /**
     * A connected app's call: the grant of its access token, written with the trace (trace-sink.ts). Its
     * access tokens are deleted a day after they expire, so the app's spend is read from here, not token_id.
     */
    grantId: uuid("grant_id").references(() => oauthGrants.id, { onDelete: "set null" }),
    /** The member who made the call: the signed-in user, or the creator of the token used. */
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    status: traceStatus("status").notNull(),
    durationMs: integer("duration_ms").notNull(),
    cacheHit: boolean("cache_hit").notNull().default(false),
    /** Redacted input. */
    input: jsonb("input").notNull(),
    /** Counts, top URLs, failure reasons. */
    resultSummary: jsonb("result_summary").notNull(),
    costMicros: bigint("cost_micros", { mode: "number" }).notNull().default(0),
    error: text("error"),
    createdAt: createdAt(),
  },
  (t) => [
    index("traces_tenant_created_idx").on(t.tenantId, t.createdAt),
    index("traces_tenant_user_created_idx").on(t.tenantId, t.userId, t.createdAt),
    ...tenantPolicies(t.tenantId),
  ],
);

export const traceSpans = pgTable(
  "trace_spans",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    traceId: uuid("trace_id")
      .notNull()
      .references(() => traces.id, { onDelete: "cascade" }),
    provider: text("provider").notNull(),
    kind: spanKind("kind").notNull(),
    startOffsetMs: integer("start_offset_ms").notNull(),
    durationMs: integer("duration_ms").notNull(),
    httpStatus: smallint("http_status"),
    bytes: integer("bytes"),
    outcome: spanOutcome("outcome").notNull(),
    error: text("error"),
    costMicros: bigint("cost_micros", { mode: "number" }).notNull().default(0),
  },
  (t) => [index("trace_spans_trace_idx").on(t.tenantId, t.traceId), ...tenantPolicies(t.tenantId)],
);

// ---------------------------------------------------------------------------------------------
// Research jobs: a question researched in the background (lib/services/research). Any instance may run
// a job: it claims the row with a lease it renews while it works; a lease that lapses (the instance
// died) lets another instance take the job over from its last checkpoint.

export const researchStatus = pgEnum("research_status", [
  "queued",
  "running",
  "succeeded",
  "failed",
  "cancelled",
]);

/** What a job does: a research question, or a crawl too long for one request (lib/services/crawl). */
export const jobKind = pgEnum("job_kind", ["research", "crawl"]);

export const researchJobs = pgTable(
  "research_jobs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    /** Research and crawl jobs share the lease machinery (lib/services/research/job-lease.ts). */
    kind: jobKind("kind").notNull().default("research"),
    /** Who started it: the job runs with their token's rights (scopes, surface), recorded on its traces. */
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    tokenId: uuid("token_id").references(() => apiTokens.id, { onDelete: "set null" }),
    tokenName: text("token_name"),
    surface: traceSurface("surface").notNull(),
    scopes: text("scopes").array().notNull(),
    /** The parsed input. */
    input: jsonb("input").notNull(),
    status: researchStatus("status").notNull().default("queued"),
    /** Phase, a line for people, steps done and planned. */
    progress: jsonb("progress").notNull().default({}),
    /** The checkpoint: the plan and every finished sub-call, so a job taken over repeats none of them. */
    state: jsonb("state").notNull().default({}),
    report: text("report"),
    sources: jsonb("sources"),
    partial: boolean("partial").notNull().default(false),
    stopReason: text("stop_reason"),
    error: text("error"),
    /** The trace of the job itself (its model calls and the list of its sub-calls), once it ended. */
    traceId: uuid("trace_id"),
    /** How many times an instance claimed it. */
    attempts: integer("attempts").notNull().default(0),
    leaseOwner: text("lease_owner"),
    leaseExpiresAt: timestamp("lease_expires_at", { withTimezone: true }),
    cancelRequested: boolean("cancel_requested").notNull().default(false),
    createdAt: createdAt(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("research_jobs_tenant_created_idx").on(t.tenantId, t.createdAt),
    // The claim query: queued jobs, and running ones whose lease lapsed.
    index("research_jobs_claimable_idx").on(t.status, t.leaseExpiresAt),
    ...tenantPolicies(t.tenantId),
  ],
);

// ---------------------------------------------------------------------------------------------
// Webhooks (lib/services/webhooks): endpoints a workspace registers for events, and the outbox of their
// deliveries. Events are written to the outbox in the transaction of the change they report (triggers in
// drizzle/0016_webhooks.sql), and delivered at least once by whichever instance claims them (a lease, as
// research jobs have).

export const webhooks = pgTable(
  "webhooks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    url: text("url").notNull(),
    /** Event types it receives (lib/services/webhooks/events.ts). */
    events: text("events").array().notNull(),
    /** The signing secret (`whsec_…`), AES-256-GCM like provider keys; AAD binds tenant + row id. */
    ciphertext: text("ciphertext").notNull(),
    iv: text("iv").notNull(),
    tag: text("tag").notNull(),
    keyVersion: smallint("key_version").notNull(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    /** Failed attempts in a row (a success resets it), and when the first of them was made. */
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    failingSince: timestamp("failing_since", { withTimezone: true }),
    /**
     * Set when its receiver kept failing (lib/services/webhooks/webhook-health.ts): no event is queued for it
     * and none is sent but test events, whose success resumes it.
     */
    pausedAt: timestamp("paused_at", { withTimezone: true }),
    /** Events not queued for it (paused, or over a limit: drizzle/0021), and the last time one was. */
    droppedEvents: integer("dropped_events").notNull().default(0),
    lastDroppedAt: timestamp("last_dropped_at", { withTimezone: true }),
  },
  (t) => [index("webhooks_tenant_idx").on(t.tenantId, t.createdAt), ...tenantPolicies(t.tenantId)],
);

export const webhookDeliveryStatus = pgEnum("webhook_delivery_status", [
  "pending",
  "delivering",
  "succeeded",
  "failed",
]);

export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    /** Also the message id the receiver sees (`webhook-id: msg_<id>`), the same on every attempt. */
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    webhookId: uuid("webhook_id")
      .notNull()
      .references(() => webhooks.id, { onDelete: "cascade" }),
    eventType: text("event_type").notNull(),
    /** The body sent: `{type, timestamp, data}`. */
    payload: jsonb("payload").notNull(),
    status: webhookDeliveryStatus("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    leaseOwner: text("lease_owner"),
    leaseExpiresAt: timestamp("lease_expires_at", { withTimezone: true }),
    /** The last attempt: the receiver's HTTP status, or why there was none; a bounded excerpt of its body. */
    lastStatus: integer("last_status"),
    lastError: text("last_error"),
    lastResponse: text("last_response"),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index("webhook_deliveries_webhook_idx").on(t.tenantId, t.webhookId, t.createdAt),
    // The claim query: pending deliveries due, and ones whose lease lapsed.
    index("webhook_deliveries_due_idx").on(t.status, t.nextAttemptAt),
    // The caps on deliveries not yet done, per webhook and per workspace (enqueue_webhook_event).
    index("webhook_deliveries_undone_idx")
      .on(t.tenantId, t.webhookId)
      .where(sql`${t.status} in ('pending', 'delivering')`),
    ...tenantPolicies(t.tenantId),
  ],
);

export const auditLog = pgTable(
  "audit_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: tenantRef(),
    actorUserId: uuid("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    actorTokenId: uuid("actor_token_id").references(() => apiTokens.id, { onDelete: "set null" }),
    /** `<area>.<verb>`, e.g. `token.create`. */
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id"),
    details: jsonb("details").notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index("audit_log_tenant_created_idx").on(t.tenantId, t.createdAt), ...tenantPolicies(t.tenantId)],
);

/**
 * A check value per key-encryption key version (SEARCHMUX_SECRET_KEY), sealed under that key by the first
 * instance that ran with it after verifying it against the provider keys stored under it. An instance with
 * another key under the same version cannot open it: it says so at start and is not ready
 * (lib/pipeline/keys/key-check.ts), instead of reading every stored provider key as missing. Not a tenant's.
 */
export const keyChecks = pgTable(
  "key_checks",
  {
    keyVersion: smallint("key_version").primaryKey(),
    ciphertext: text("ciphertext").notNull(),
    iv: text("iv").notNull(),
    tag: text("tag").notNull(),
    createdAt: createdAt(),
  },
  () => [systemAccess],
);
