/**
 * One web-search provider attempt: the shared call wrapper (lib/engine/shared/isolated-call.ts) around
 * the adapter's search(). Never throws and never outlives the deadline.
 */
import { ProviderError } from "@/lib/engine/shared/errors";
import { callIsolated, type IsolatedOutcome } from "@/lib/engine/shared/isolated-call";
import { priceOf, resultCountPricing, resultsBilledAtMost } from "@/lib/engine/shared/price";
import type { AdmitHook, ResolvedProvider } from "@/lib/engine/shared/types";
import type { ParsedQuery, ProviderResponse, SearchProvider, SearchRequestOptions } from "./types";

export type { Admission, AdmitHook } from "@/lib/engine/shared/types";

/** A provider as the caller (services layer) resolved it for this search. */
export type ProviderEntry = ResolvedProvider<SearchProvider>;

export type CallOutcome = IsolatedOutcome<ProviderEntry, ProviderResponse, "search">;

export interface CallContext {
  query: ParsedQuery;
  options: SearchRequestOptions;
  /** The overall deadline, already linked to the caller's signal. */
  deadline: AbortSignal;
  admit?: AdmitHook;
  /** performance.now() when the search started; span offsets are relative to it. */
  origin: number;
}

export function callProvider(entry: ProviderEntry, context: CallContext): Promise<CallOutcome> {
  const { query, options, deadline, admit, origin } = context;
  const { provider } = entry;
  const asked = resultsBilledAtMost(provider, options.maxResults);
  const pricing = resultCountPricing<ProviderResponse>(priceOf(entry), asked);
  return callIsolated(
    {
      entry,
      invoke: (signal) => {
        const call = { query, options, apiKey: entry.apiKey, baseUrl: entry.baseUrl, signal };
        if (options.topic === "general") return provider.search(call);
        if (provider.news) return provider.news(call);
        // Callers leave such providers out (topic.ts); one handed in anyway fails alone.
        throw new ProviderError("not_configured", `${provider.displayName} has no news search`);
      },
      isResponse: isProviderResponse,
      count: (response) => response.results.length,
      ...(pricing && { pricing }),
    },
    { kind: "search", deadline, admit, origin },
  );
}

/** Guards against adapters that resolve with something that is not a list of results. */
export function isProviderResponse(value: unknown): value is ProviderResponse {
  if (typeof value !== "object" || value === null || !("results" in value) || !Array.isArray(value.results)) {
    return false;
  }
  return value.results.every(
    (result: unknown) =>
      typeof result === "object" &&
      result !== null &&
      "url" in result &&
      typeof result.url === "string" &&
      "title" in result &&
      typeof result.title === "string" &&
      "snippet" in result &&
      typeof result.snippet === "string",
  );
}
