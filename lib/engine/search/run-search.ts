/**
 * web_search engine entry point: validated input + the caller's provider set in, fused results,
 * per-provider outcomes and spans out. No database, no env: keys, base URLs and admission come from
 * the caller. Provider failures are reported, never thrown; the call returns by `timeout_ms` even
 * when a provider ignores its abort signal. Invalid input throws a ZodError.
 */
import { linkedAbort } from "@/lib/engine/shared/abort";
import { requestAdjustments } from "@/lib/engine/shared/adjustments";
import { selectEntries } from "@/lib/engine/shared/select-entries";
import type { RequestAdjustment } from "@/lib/engine/shared/types";
import { type AdmitHook, type CallOutcome, callProvider, type ProviderEntry } from "./attempt";
import { callAll, callInTurn, ladderOrder } from "./fanout";
import { fuseResults } from "./fusion";
import { type SearchInputRaw, searchInputSchema } from "./input";
import { parseQuery } from "./operators";
import { postFilter } from "./post-filter";
import { type RankedResult, rankProviderResults } from "./ranked-results";
import { buildRequestOptions } from "./request-options";
import { contentWords, tokenize } from "./text";
import type { FusedResult, ProviderFailure, ProviderResponse, ProviderSuccess, SearchSpan } from "./types";

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
  /**
   * Providers' answers to this same search kept from earlier calls, by provider id: those providers are
   * not called (nor admitted), their kept results fused as if they had just answered.
   */
  answered?: ReadonlyMap<string, ProviderAnswer>;
  /** Told of each provider's fresh answer (not of kept ones), for the caller to keep. */
  onAnswer?: (providerId: string, answer: ProviderAnswer) => void;
  /** Told, once fused, of the lists fusion ranked: each answering provider's pages (normalised URLs) in order. */
  onRankings?: (rankings: ProviderRanking[]) => void;
}

/** One provider's answer as fusion saw it: its pages' normalised URLs, best first. */
export interface ProviderRanking {
  provider: string;
  keys: string[];
}

/** What is kept of one provider's answer: its results as the adapter returned them, and what it adjusted. */
export interface ProviderAnswer {
  results: ProviderResponse["results"];
  adjustments?: ProviderResponse["adjustments"];
}

export interface SearchResult {
  query: string;
  results: FusedResult[];
  providers_succeeded: ProviderSuccess[];
  providers_failed: ProviderFailure[];
  /** What adapters changed in their providers' requests to fit them (adapter-kit), per answering provider. */
  adjustments: RequestAdjustment[];
  spans: SearchSpan[];
  /** True when any provider failed, timed out or was refused: such a result must not be cached. */
  partial: boolean;
  /** True when every provider answer came from `answered`: the search bought nothing. */
  cached: boolean;
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
  // Kept answers first: in budget and single mode they may be all the search needs.
  const isKept = (entry: ProviderEntry) => args.answered?.has(entry.provider.id) === true;
  const keptFirst = (list: readonly ProviderEntry[]) => [
    ...list.filter(isKept),
    ...list.filter((e) => !isKept(e)),
  ];

  const deadline = linkedAbort(
    [args.signal],
    input.timeout_ms,
    `no answer before the ${input.timeout_ms} ms deadline`,
  );
  const context = { query, options, deadline: deadline.signal, admit: args.admit, origin };
  const attempt = async (entry: ProviderEntry): Promise<Attempted> => {
    const kept = args.answered?.get(entry.provider.id);
    const outcome = kept ? keptOutcome(entry, kept, origin) : await callProvider(entry, context);
    if (!outcome.ok) return { outcome, ranked: [] };
    const { results, adjustments } = outcome.response;
    if (!kept)
      args.onAnswer?.(entry.provider.id, {
        results,
        ...(adjustments && adjustments.length > 0 && { adjustments }),
      });
    const ranked = rankProviderResults(entry.provider.id, outcome.response.results);
    return { outcome, ranked: postFilter(ranked, query, options, entry.provider.capabilities, nowMs) };
  };

  let attempts: Attempted[];
  try {
    // auto: the caller handed in the providers its planner chose; they are asked as a fan-out.
    if (input.mode === "fanout" || input.mode === "auto") {
      attempts = await callAll(entries, attempt);
    } else {
      const [order, wanted] =
        input.mode === "budget"
          ? [keptFirst(ladderOrder(entries)), input.max_results]
          : [keptFirst(entries), 1];
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
  args.onRankings?.(
    attempts.flatMap(({ outcome, ranked }) =>
      outcome.ok ? [{ provider: outcome.entry.provider.id, keys: ranked.map((r) => r.key) }] : [],
    ),
  );
  const providersFailed = attempts.flatMap(({ outcome }) => (outcome.ok ? [] : [outcome.failure]));
  const answeredFresh = attempts.some(({ outcome }) => outcome.ok && outcome.span.outcome !== "cache_hit");
  return {
    query: input.query,
    results,
    providers_succeeded: attempts.flatMap(({ outcome }) => (outcome.ok ? [outcome.success] : [])),
    providers_failed: providersFailed,
    adjustments: requestAdjustments(
      attempts.flatMap(({ outcome }) =>
        outcome.ok
          ? [{ provider: outcome.entry.provider.id, adjustments: outcome.response.adjustments }]
          : [],
      ),
    ),
    spans: attempts.map(({ outcome }) => outcome.span),
    partial: providersFailed.length > 0,
    cached: !answeredFresh && attempts.some(({ outcome }) => outcome.ok),
    duration_ms: Math.round(performance.now() - origin),
  };
}

/** A provider's kept answer as the outcome of an attempt that sent nothing. */
function keptOutcome(entry: ProviderEntry, kept: ProviderAnswer, origin: number): CallOutcome {
  const provider = entry.provider.id;
  const count = kept.results.length;
  return {
    ok: true,
    entry,
    response: { results: kept.results, ...(kept.adjustments && { adjustments: kept.adjustments }) },
    success: { provider, duration_ms: 0, count },
    span: {
      provider,
      kind: "search",
      start_offset_ms: Math.round(performance.now() - origin),
      duration_ms: 0,
      outcome: "cache_hit",
    },
  };
}

function distinctUrls(attempts: readonly Attempted[]): number {
  const keys = new Set<string>();
  for (const { ranked } of attempts) for (const item of ranked) keys.add(item.key);
  return keys.size;
}
