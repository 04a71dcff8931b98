/**
 * web_search engine entry point: validated input + the caller's provider set in, fused results,
 * per-provider outcomes and spans out. No database, no env: keys, base URLs and admission come from
 * the caller. Provider failures are reported, never thrown; the call returns by `timeout_ms` even
 * when a provider ignores its abort signal. Invalid input throws a ZodError.
 */
import { linkedAbort } from "@/lib/engine/shared/abort";
import { selectEntries } from "@/lib/engine/shared/select-entries";
import { type AdmitHook, type CallOutcome, callProvider, type ProviderEntry } from "./attempt";
import { callAll, callInTurn, ladderOrder } from "./fanout";
import { fuseResults } from "./fusion";
import { type SearchInputRaw, searchInputSchema } from "./input";
import { parseQuery } from "./operators";
import { postFilter } from "./post-filter";
import { type RankedResult, rankProviderResults } from "./ranked-results";
import { buildRequestOptions } from "./request-options";
import { contentWords, tokenize } from "./text";
import type { FusedResult, ProviderFailure, ProviderSuccess, SearchSpan } from "./types";

export interface RunSearchArgs {
  /** Validated here (searchInputSchema); already-validated input passes unchanged. */
  input: SearchInputRaw;
  /** Providers chosen and resolved by the caller; duplicates of an id after the first are ignored. */
  providers: readonly ProviderEntry[];
  /** The caller's cancellation (client gone); providers still running are reported as timeouts. */
  signal?: AbortSignal;
  admit?: AdmitHook;
  /** Wall clock (ms since epoch) for time_range post-filters; defaults to Date.now. */
  now?: () => number;
}

export interface SearchResult {
  query: string;
  results: FusedResult[];
  providers_succeeded: ProviderSuccess[];
  providers_failed: ProviderFailure[];
  spans: SearchSpan[];
  /** True when any provider failed, timed out or was refused: such a result must not be cached. */
  partial: boolean;
  duration_ms: number;
}

interface Attempted {
  outcome: CallOutcome;
  /** The provider's results, ranked and post-filtered; empty on failure. */
  ranked: RankedResult[];
}

export async function runSearch(args: RunSearchArgs): Promise<SearchResult> {
  const origin = performance.now();
  const input = searchInputSchema.parse(args.input);
  const query = parseQuery(input.query);
  const options = buildRequestOptions(input, query);
  const nowMs = (args.now ?? Date.now)();
  const { entries } = selectEntries(args.providers);

  const deadline = linkedAbort(
    [args.signal],
    input.timeout_ms,
    `no answer before the ${input.timeout_ms} ms deadline`,
  );
  const context = { query, options, deadline: deadline.signal, admit: args.admit, origin };
  const attempt = async (entry: ProviderEntry): Promise<Attempted> => {
    const outcome = await callProvider(entry, context);
    if (!outcome.ok) return { outcome, ranked: [] };
    const ranked = rankProviderResults(entry.provider.id, outcome.response.results);
    return { outcome, ranked: postFilter(ranked, query, options, entry.provider.capabilities, nowMs) };
  };

  let attempts: Attempted[];
  try {
    if (input.mode === "fanout") {
      attempts = await callAll(entries, attempt);
    } else {
      const [order, wanted] =
        input.mode === "budget" ? [ladderOrder(entries), input.max_results] : [entries, 1];
      attempts = await callInTurn(order, attempt, (done) => distinctUrls(done) >= wanted, deadline.signal);
    }
  } finally {
    deadline.dispose();
  }

  const queryTerms = contentWords(tokenize(`${query.terms} ${query.intitle.join(" ")}`));
  const results = fuseResults(
    attempts.map((a) => a.ranked),
    { maxResults: input.max_results, queryTerms },
  );
  const providersFailed = attempts.flatMap(({ outcome }) => (outcome.ok ? [] : [outcome.failure]));
  return {
    query: input.query,
    results,
    providers_succeeded: attempts.flatMap(({ outcome }) => (outcome.ok ? [outcome.success] : [])),
    providers_failed: providersFailed,
    spans: attempts.map(({ outcome }) => outcome.span),
    partial: providersFailed.length > 0,
    duration_ms: Math.round(performance.now() - origin),
  };
}

function distinctUrls(attempts: readonly Attempted[]): number {
  const keys = new Set<string>();
  for (const { ranked } of attempts) for (const item of ranked) keys.add(item.key);
  return keys.size;
}
