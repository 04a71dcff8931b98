/**
 * include_content: the top results' pages as Markdown, fetched in parallel through the whole fetch
 * waterfall within what is left of the call's deadline. A page that fails keeps its result and says why.
 */
import { linkedAbort } from "@/lib/engine/shared/abort";
import { fetchForStage } from "./stage-fetch";
import type { ContentPage, PageAccess, ResearchResult, StageSpan } from "./types";

export interface ContentArgs extends PageAccess {
  results: readonly ResearchResult[];
  count: number;
  maxChars: number;
  /** What is left of the call's deadline. */
  remainingMs: number;
  /** The caller's cancellation. */
  signal?: AbortSignal;
}

export interface ContentOutcome {
  results: ResearchResult[];
  pages: ContentPage[];
  spans: StageSpan[];
}

export async function fetchPageContents(args: ContentArgs): Promise<ContentOutcome> {
  const deadline = linkedAbort([args.signal], args.remainingMs, "no page before the call's deadline");
  const fetched = await Promise.all(
    args.results.slice(0, args.count).map((result) =>
      fetchForStage(
        {
          url: result.url,
          format: "markdown",
          maxChars: args.maxChars,
          signal: deadline.signal,
          timeoutMs: args.remainingMs,
        },
        args,
      ),
    ),
  ).finally(() => deadline.dispose());
  return {
    results: args.results.map((result, index) => {
      const outcome = fetched[index]?.outcome;
      if (outcome === undefined) return result;
      return outcome.ok
        ? { ...result, content: outcome.page.content }
        : { ...result, content_error: outcome.problem.message };
    }),
    pages: fetched.map(({ outcome }, index) => {
      const url = args.results[index]?.url ?? "";
      return outcome.ok ? { url, provider: outcome.page.provider } : { url, problem: outcome.problem };
    }),
    spans: fetched.flatMap((f) => f.spans),
  };
}
