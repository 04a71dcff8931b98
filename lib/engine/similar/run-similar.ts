/**
 * similar through a provider that finds similar pages itself (Exa's findSimilar): one isolated attempt
 * (own timeout inside the deadline, admission), its list ranked as web results are, the page itself and the
 * excluded domains left out. Failures are reported, never thrown. No database, no env.
 */
import { isProviderResponse } from "@/lib/engine/search/attempt";
import { fuseResults } from "@/lib/engine/search/fusion";
import { rankProviderResults } from "@/lib/engine/search/ranked-results";
import type { FusedResult, ProviderResponse } from "@/lib/engine/search/types";
import { linkedAbort } from "@/lib/engine/shared/abort";
import { callIsolated } from "@/lib/engine/shared/isolated-call";
import { priceOf, resultCountPricing } from "@/lib/engine/shared/price";
import type { AdmitHook, ProviderFailure, ProviderSpan, ProviderSuccess } from "@/lib/engine/shared/types";
import { withoutPage } from "./exclude";
import type { SimilarEntry } from "./types";

/** A few more than asked, so that leaving the page itself out still fills the list. */
const OVERFETCH = 2;

/** The results asked of the provider for `maxResults` similar pages (what its price by result count counts). */
export const similarResultsAsked = (maxResults: number) => maxResults + OVERFETCH;

export interface RunSimilarArgs {
  url: string;
  maxResults: number;
  excludeDomains: string[];
  entry: SimilarEntry;
  timeoutMs: number;
  admit?: AdmitHook;
  signal?: AbortSignal;
}

export interface SimilarResult {
  results: FusedResult[];
  providers_succeeded: ProviderSuccess[];
  providers_failed: ProviderFailure[];
  spans: ProviderSpan<"search">[];
  partial: boolean;
  duration_ms: number;
}

export async function runSimilar(args: RunSimilarArgs): Promise<SimilarResult> {
  const origin = performance.now();
  const { entry, url, excludeDomains } = args;
  const deadline = linkedAbort(
    [args.signal],
    args.timeoutMs,
    `no answer before the ${args.timeoutMs} ms deadline`,
  );
  const asked = similarResultsAsked(args.maxResults);
  const pricing = resultCountPricing<ProviderResponse>(priceOf(entry), asked);
  const outcome = await callIsolated(
    {
      entry,
      invoke: (signal) =>
        entry.provider.findSimilar({
          url,
          maxResults: asked,
          excludeDomains,
          apiKey: entry.apiKey,
          baseUrl: entry.baseUrl,
          signal,
        }),
      isResponse: isProviderResponse,
      count: (response) => response.results.length,
      ...(pricing && { pricing }),
    },
    { kind: "search", deadline: deadline.signal, admit: args.admit, origin },
  ).finally(() => deadline.dispose());
  const ranked = outcome.ok ? rankProviderResults(entry.provider.id, outcome.response.results) : [];
  return {
    results: withoutPage(
      fuseResults([ranked], { maxResults: ranked.length, queryTerms: new Set() }),
      [url],
      excludeDomains,
    ).slice(0, args.maxResults),
    providers_succeeded: outcome.ok ? [outcome.success] : [],
    providers_failed: outcome.ok ? [] : [outcome.failure],
    spans: [outcome.span],
    partial: !outcome.ok,
    duration_ms: Math.round(performance.now() - origin),
  };
}
