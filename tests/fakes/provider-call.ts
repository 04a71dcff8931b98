/**
 * Builds a ProviderCall for adapter tests: a plain query, 10 results, no filters, unless overridden.
 * `terms` defaults to the raw query; pass `query` fields to exercise operators.
 */
import type { ParsedQuery, ProviderCall, SearchRequestOptions } from "@/lib/engine/search/types";

export interface ProviderCallOverrides {
  query?: Partial<ParsedQuery>;
  options?: Partial<SearchRequestOptions>;
  apiKey?: string;
  signal?: AbortSignal;
}

export function providerCall(baseUrl: string, overrides: ProviderCallOverrides = {}): ProviderCall {
  const raw = overrides.query?.raw ?? overrides.query?.terms ?? "rust async runtime";
  return {
    query: { raw, terms: raw, phrases: [], sites: [], excludeSites: [], intitle: [], ...overrides.query },
    options: {
      maxResults: 10,
      topic: "general",
      includeDomains: [],
      excludeDomains: [],
      ...overrides.options,
    },
    apiKey: "apiKey" in overrides ? overrides.apiKey : "test-key-123456",
    baseUrl,
    signal: overrides.signal ?? AbortSignal.timeout(5_000),
  };
}
