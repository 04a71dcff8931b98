/**
 * Contract between the search engine (lib/engine/search) and the provider adapters
 * (lib/providers/search/<id>.ts). Pure types: no I/O, no env, no database.
 */

import type { ProviderId, ProviderRegistration, ProviderSpan } from "@/lib/engine/shared/types";

export type {
  ProviderFailure,
  ProviderId,
  ProviderSuccess,
} from "@/lib/engine/shared/types";

export type TimeRange = "day" | "week" | "month" | "year";
export type SafeSearch = "off" | "moderate" | "strict";

/** Operators parsed once from the query text (see operators.ts). */
export interface ParsedQuery {
  /** The query as the caller typed it. */
  raw: string;
  /** Free text with every recognised operator removed, phrases kept without quotes. */
  terms: string;
  /** `"exact phrase"` parts, without quotes. */
  phrases: string[];
  /** `site:` domains (lowercase, no scheme). */
  sites: string[];
  /** `-site:` domains. */
  excludeSites: string[];
  /** `filetype:` extension, lowercase without dot. */
  filetype?: string;
  /** `intitle:` words. */
  intitle: string[];
  /** `after:` / `before:` as ISO dates (YYYY-MM-DD). */
  after?: string;
  before?: string;
}

/** Options every adapter receives, already validated and normalised by the engine. */
export interface SearchRequestOptions {
  maxResults: number;
  /** "news" calls the adapter's `news` search. */
  topic: "general" | "news";
  /** ISO 639-1, lowercase (e.g. "de"): a preference, sent where the provider has a parameter for it. */
  language?: string;
  timeRange?: TimeRange;
  /** Two-letter country code, lowercase (e.g. "us", "de"). */
  region?: string;
  safesearch?: SafeSearch;
  /** Domains from the caller's include_domains merged with `site:` operators. */
  includeDomains: string[];
  /** Domains from exclude_domains merged with `-site:` operators. */
  excludeDomains: string[];
}

/** What an adapter declares it can do natively; everything else the engine post-filters. */
export interface ProviderCapabilities {
  timeRange: boolean;
  region: boolean;
  safesearch: boolean;
  includeDomains: boolean;
  excludeDomains: boolean;
  /** Operators the provider understands inside the query text itself. */
  queryOperators: Array<"site" | "-site" | "filetype" | "intitle" | "phrase" | "before" | "after">;
}

/** Everything one adapter call gets. Keys arrive here; adapters never read env or the database. */
export interface ProviderCall {
  query: ParsedQuery;
  options: SearchRequestOptions;
  /** Undefined for keyless providers. */
  apiKey?: string;
  /** Resolved base URL (registration default or `<PROVIDER>_BASE_URL` override, chosen by the caller). */
  baseUrl: string;
  /** Aborts on the provider timeout or the overall deadline, whichever comes first. */
  signal: AbortSignal;
}

/** One raw result as a provider ranked it (rank = index + 1). */
export interface ProviderResult {
  title: string;
  url: string;
  snippet: string;
  /** ISO 8601 where the provider's date could be read (dates.ts, publishedDate), else as the provider wrote it. */
  publishedAt?: string;
  /** The publisher's name (news), as the provider gives it. */
  source?: string;
}

/** What an adapter returns: its results plus transport facts for the span. */
export interface ProviderResponse {
  results: ProviderResult[];
  httpStatus?: number;
  bytes?: number;
  /**
   * What the adapter changed in the call to fit what the provider accepts (a region it does not know, a query
   * cut to its length limit, fewer results than asked), in words: its results answer the changed request.
   */
  adjustments?: string[];
}

export interface SearchProvider extends ProviderRegistration {
  capabilities: ProviderCapabilities;
  search(call: ProviderCall): Promise<ProviderResponse>;
  /** Its news search (topic "news"); absent when the provider has none, and it is skipped for news. */
  news?(call: ProviderCall): Promise<ProviderResponse>;
}

type SnippetSource = "aggregated" | "grounded" | "fallback";

export interface FusedResult {
  title: string;
  url: string;
  snippet: string;
  score: number;
  sources: Array<{ provider: ProviderId; rank: number }>;
  snippet_source: SnippetSource;
  publishedAt?: string;
  source?: string;
}

/** One provider attempt, for traces. */
export type SearchSpan = ProviderSpan<"search">;
