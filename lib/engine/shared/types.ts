/**
 * What every engine (search, answer, papers, fetch) shares about calling providers: ids, failure
 * reasons, per-provider outcomes and spans. Pure types: no I/O, no env, no database.
 */
import type { FailureReason } from "@/lib/http/provider-error";
import type { RateLimitHint } from "@/lib/http/rate-limit-headers";

/** Lowercase provider id, the same in requests, responses, budgets, keys and traces. */
export type ProviderId = string;

/** Why a provider produced nothing: the platform's reasons (lib/http/provider-error.ts). */
export type { FailureReason };

export interface ProviderFailure {
  provider: ProviderId;
  reason: FailureReason;
  status?: number;
  /** Seconds, from a 429's Retry-After. */
  retryAfter?: number;
  message?: string;
  duration_ms: number;
}

/** A change an adapter made to one provider's request so that the provider takes it, told to the caller. */
export interface RequestAdjustment {
  provider: ProviderId;
  note: string;
}

export interface ProviderSuccess {
  provider: ProviderId;
  duration_ms: number;
  /** Usable items the provider returned (results, papers; 1 for an answer). */
  count: number;
}

export type SpanOutcome =
  | "ok"
  | "empty"
  | "error"
  | "timeout"
  | "skipped_budget"
  | "skipped_breaker"
  /** The key was paused after a 429, or had no send slot left this second: nothing was sent or paid. */
  | "skipped_rate_limit"
  /** The key was paused after the provider said its quota, credit or payment limit is used up. */
  | "skipped_quota"
  /** The provider's answer came from an earlier call of the same request: nothing was sent or paid. */
  | "cache_hit";

/** One provider attempt, for traces. */
export interface ProviderSpan<Kind extends string = string> {
  provider: ProviderId;
  kind: Kind;
  start_offset_ms: number;
  duration_ms: number;
  status?: number;
  bytes?: number;
  outcome: SpanOutcome;
  error?: string;
}

/** What a provider attempt came to, told to whoever admitted it. */
export interface AttemptReport {
  span: ProviderSpan;
  failure?: ProviderFailure;
  /**
   * With a failure: whether it is down to the provider itself (a 5xx, the network, a malformed answer, no
   * answer within a fair share of its own timeout), not to the caller (its deadline or cancellation, a
   * refused key, a bad request, a rate limit, an oversized page) or to our own code throwing. Only such
   * failures say anything about the provider's health.
   */
  providerFault?: boolean;
  /** What the provider's rate-limit headers said about the key, answer or error (lib/http/rate-limit-headers.ts). */
  rateLimit?: RateLimitHint;
  /**
   * What the attempt actually cost, in micro-dollars, when it is priced by what it used (a model's tokens):
   * the charge kept is this, at most what was reserved. Undefined: the reserved cost is kept.
   */
  costMicros?: number;
}

export type Admission =
  | { ok: true; settled?: (report: AttemptReport) => void }
  | {
      ok: false;
      reason:
        | "budget_exhausted"
        | "operator_quota_exhausted"
        | "breaker_open"
        | "rate_limited"
        | "quota_exhausted";
      /** Why, in a few words, when the reason alone does not say it (the key's pause, until when). */
      detail?: string;
      /** Seconds until the key may be tried again (its pause ends, or its next send slot), when known. */
      retryAfter?: number;
    };
/**
 * Called right before each provider call (atomic budget admission, circuit breaker); an admitted call
 * reports its outcome to `settled` (breaker, health, metrics, live progress). `reserveMicros` is the most
 * a call priced by use can cost (a model's tokens), reserved instead of the provider's cost per request;
 * `deadline` is the call's, which a wait for a send slot stays within (lib/http/abort.ts `deadlineOf`).
 */
export type AdmitHook = (
  providerId: ProviderId,
  reserveMicros?: number,
  deadline?: AbortSignal,
) => Promise<Admission>;

type FreeTierPeriod = "day" | "month" | "lifetime";

/** A provider's free allowance each period: so many requests, or so many dollars of credit (Brave: $5 a month). */
export type FreeTier =
  | { requests: number; usd?: undefined; period: FreeTierPeriod }
  | { usd: number; requests?: undefined; period: FreeTierPeriod };

/**
 * What one call of a provider's tool costs, in USD (lib/providers/prices.ts, overridden by SEARCHMUX_PRICES):
 * `usd_per_request` covers up to `results_included` results; each result beyond costs `usd_per_extra_result`,
 * billed in started blocks of `results_per_block` results where the provider bills so (Firecrawl: 10).
 * `usd_per_million_tokens` is what a provider that also bills tokens charges per million [input, output].
 */
export interface Price {
  usd_per_request: number;
  usd_per_extra_result?: number;
  results_included?: number;
  results_per_block?: number;
  usd_per_million_tokens?: readonly [number, number];
  /** The account's free allowance (one per provider, whatever its tools). */
  free_tier: FreeTier | null;
}

/** A price table entry: the price, the key it is listed under, and where it was read. */
export interface ListedPrice extends Price {
  /** `<provider>` for the provider's main tool, `<provider>/<tool kind>` for a tool billed differently. */
  key: string;
  /** The provider's pricing page (or SDK file) the price was read from, with a note where needed. */
  source: string;
  /** When it was read, YYYY-MM-DD. */
  as_of: string;
  note?: string;
}

/** What every adapter's registration declares, whatever its tool; each tool's provider type extends it. */
export interface ProviderRegistration {
  id: ProviderId;
  displayName: string;
  /** Env variables holding the operator key, e.g. ["TAVILY_API_KEY"]; empty for keyless providers. */
  keyEnv: string[];
  /** True when a key only raises limits (PubMed, Semantic Scholar): the provider works without one. */
  keyOptional?: boolean;
  /**
   * Configured by each workspace alone, never by the operator's environment: its key, base URL and settings
   * are stored together (the workspace model, `workspace_llm`). It needs that key; `keyEnv` stays empty.
   */
  configuredByWorkspace?: boolean;
  /** Env variable that overrides the base URL, e.g. "TAVILY_BASE_URL". */
  baseUrlEnv: string;
  /** Default base URL; null when it must be configured (SearXNG, an operator's own model server). */
  defaultBaseUrl: string | null;
  docsUrl: string;
  apiVersion: string;
  /** Its price as the table lists it (lib/providers/prices.ts); the operator's override comes with the call. */
  price: ListedPrice;
  defaultTimeoutMs: number;
  /**
   * The per-second limit of the plan a new key starts on, where the provider publishes one (Brave's free
   * plan: 1): calls with a key are paced to it across instances until the provider's own rate-limit headers
   * name the key's limit (lib/pipeline/rate-limit/pacing.ts).
   */
  requestsPerSecond?: number;
  /**
   * The most results the adapter asks for in one request, where a call may want more (Exa: 25): a price by the
   * result count is reserved and estimated for at most these (resultsBilledAtMost).
   */
  maxResults?: number;
}

/** Tokens a model call read and wrote, as the provider's answer reports them (or a ceiling of them). */
export interface TokenUsage {
  input: number;
  output: number;
}

/** A model's price per million tokens, in USD: what a call is charged from the tokens it reports. */
export interface ModelPrice {
  inputPerMillion: number;
  outputPerMillion: number;
}

/** What a workspace stored with its own endpoint's key (`configuredByWorkspace`): the model and its price. */
export interface WorkspaceEndpoint {
  model: string;
  price: ModelPrice;
}

/** A provider as the caller (services layer) resolved it for one call: key and base URL chosen. */
export interface ResolvedProvider<P extends ProviderRegistration> {
  provider: P;
  apiKey?: string;
  baseUrl: string;
  /** Overrides provider.defaultTimeoutMs. */
  timeoutMs?: number;
  /** The price the call is charged at, with the operator's override (SEARCHMUX_PRICES); else provider.price. */
  effectivePrice?: Price;
  /** For a provider the workspace configures itself: the rest of what it stored with the key. */
  endpoint?: WorkspaceEndpoint;
}

/** Transport facts an adapter reports with its answer, copied onto the span. */
export interface TransportFacts {
  httpStatus?: number;
  bytes?: number;
  /** What the answer's rate-limit headers said about the key. */
  rateLimit?: RateLimitHint;
}
