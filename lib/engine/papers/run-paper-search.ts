/**
 * paper_search engine entry point: validated input + the caller's paper providers in, deduplicated
 * and ranked papers, per-provider outcomes and spans out. No database, no env. Providers are called in
 * parallel with the same isolation as web search (own timeout inside the overall deadline, admission,
 * distinct failure reasons); failures are reported, never thrown. Invalid input throws a ZodError.
 */
import { linkedAbort } from "@/lib/engine/shared/abort";
import { callIsolated, type IsolatedOutcome } from "@/lib/engine/shared/isolated-call";
import { selectEntries } from "@/lib/engine/shared/select-entries";
import type { AdmitHook, ProviderFailure, ProviderSuccess } from "@/lib/engine/shared/types";
import { type PaperSearchInputRaw, paperSearchInputSchema } from "./input";
import { mergePapers } from "./merge";
import { selectPapers } from "./select";
import type { PaperEntry, PaperProviderResponse, PaperRecord, PaperSearchOptions, PaperSpan } from "./types";

/** Providers are asked for more than max_results so that merging and filtering still leave enough. */
const OVERFETCH = 2;
const MAX_PER_PROVIDER = 100;

export interface RunPaperSearchArgs {
  input: PaperSearchInputRaw;
  /** Providers resolved by the caller; duplicates of an id after the first are ignored. */
  providers: readonly PaperEntry[];
  signal?: AbortSignal;
  admit?: AdmitHook;
}

export interface PaperSearchResult {
  query: string;
  results: PaperRecord[];
  providers_succeeded: ProviderSuccess[];
  providers_failed: ProviderFailure[];
  spans: PaperSpan[];
  /** True when any provider failed, timed out or was refused. */
  partial: boolean;
  duration_ms: number;
}

type Outcome = IsolatedOutcome<PaperEntry, PaperProviderResponse, "papers">;

export async function runPaperSearch(args: RunPaperSearchArgs): Promise<PaperSearchResult> {
  const origin = performance.now();
  const input = paperSearchInputSchema.parse(args.input);
  const options: PaperSearchOptions = {
    maxResults: input.max_results,
    sort: input.sort,
    yearFrom: input.year_from,
    yearTo: input.year_to,
    openAccessOnly: input.open_access,
  };
  const providerOptions = {
    ...options,
    maxResults: Math.min(input.max_results * OVERFETCH, MAX_PER_PROVIDER),
  };
  const { entries, missing } = selectEntries(args.providers, input.providers);
  const deadline = linkedAbort(
    [args.signal],
    input.timeout_ms,
    `no answer before the ${input.timeout_ms} ms deadline`,
  );
  const context = { kind: "papers" as const, deadline: deadline.signal, admit: args.admit, origin };

  let outcomes: Outcome[];
  try {
    outcomes = await Promise.all(
      entries.map((entry) =>
        callIsolated(
          {
            entry,
            invoke: (signal) =>
              entry.provider.search({
                query: input.query,
                options: providerOptions,
                apiKey: entry.apiKey,
                baseUrl: entry.baseUrl,
                mailto: entry.mailto,
                signal,
              }),
            isResponse: isPaperResponse,
            count: (response) => response.papers.length,
          },
          context,
        ),
      ),
    );
  } finally {
    deadline.dispose();
  }

  const merged = mergePapers(
    outcomes.flatMap((outcome) =>
      outcome.ok ? [{ provider: outcome.entry.provider.id, papers: outcome.response.papers }] : [],
    ),
  );
  const providersFailed = [
    ...missing,
    ...outcomes.flatMap((outcome) => (outcome.ok ? [] : [outcome.failure])),
  ];
  return {
    query: input.query,
    results: selectPapers(merged, options),
    providers_succeeded: outcomes.flatMap((outcome) => (outcome.ok ? [outcome.success] : [])),
    providers_failed: providersFailed,
    spans: outcomes.map((outcome) => outcome.span),
    partial: providersFailed.length > 0,
    duration_ms: Math.round(performance.now() - origin),
  };
}

function isPaperResponse(value: unknown): value is PaperProviderResponse {
  if (typeof value !== "object" || value === null || !("papers" in value) || !Array.isArray(value.papers)) {
    return false;
  }
  return value.papers.every(
    (paper: unknown) =>
      typeof paper === "object" &&
      paper !== null &&
      "title" in paper &&
      typeof paper.title === "string" &&
      "authors" in paper &&
      Array.isArray(paper.authors),
  );
}
