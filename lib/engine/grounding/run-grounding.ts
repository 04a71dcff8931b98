/**
 * The grounded-snippets stage: the top results' pages read and re-described by a model, at most
 * CONCURRENCY pages at a time, each within its own deadline. A page that yields nothing keeps its fused
 * snippet (`snippet_source: "fallback"`); results past the top keep theirs as aggregated.
 */
import { linkedAbort } from "@/lib/engine/shared/abort";
import { type GroundingCall, groundPage } from "./ground-page";
import type { GroundedPage, ResearchResult, StageSpan } from "./types";
import { mapWithConcurrency } from "./worker-pool";

const CONCURRENCY = 5;

export interface GroundingArgs extends GroundingCall {
  results: readonly ResearchResult[];
  /** How many of the top results to ground. */
  count: number;
  /** The caller's cancellation. */
  signal?: AbortSignal;
}

export interface GroundingOutcome {
  results: ResearchResult[];
  pages: GroundedPage[];
  spans: StageSpan[];
}

export async function runGrounding(args: GroundingArgs): Promise<GroundingOutcome> {
  const grounded = await mapWithConcurrency(
    args.results.slice(0, args.count),
    CONCURRENCY,
    async (result) => {
      const deadline = linkedAbort(
        [args.signal],
        args.pageTimeoutMs,
        `no grounded snippet within ${args.pageTimeoutMs} ms`,
      );
      try {
        return await groundPage(result, args, deadline.signal);
      } finally {
        deadline.dispose();
      }
    },
  );
  return {
    results: args.results.map((result, index) => {
      const page = grounded[index];
      if (page === undefined) return result;
      return page.snippet === undefined
        ? { ...result, snippet_source: "fallback" }
        : { ...result, snippet: page.snippet, snippet_source: "grounded" };
    }),
    pages: grounded.map((g) => g.page),
    spans: grounded.flatMap((g) => g.spans),
  };
}
