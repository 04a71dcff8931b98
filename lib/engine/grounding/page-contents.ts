/**
 * include_content: the top results' pages as Markdown, fetched in parallel through the whole fetch
 * waterfall within what is left of the call's deadline. A page that fails keeps its result and says why.
 */
import { cutWithMarker } from "@/lib/engine/fetch/render";
import type { FetchResult } from "@/lib/engine/fetch/run-fetch";
import { linkedAbort } from "@/lib/engine/shared/abort";
import { fetchForStage } from "./stage-fetch";
import type { ContentPage, PageAccess, ResearchResult, StageSpan } from "./types";

export interface ContentArgs extends PageAccess {
  results: readonly ResearchResult[];
  count: number;
  maxChars: number;
  /** The pages' content together: each page trimmed so the sum fits (fairly: short pages leave room). */
  totalChars: number;
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
  const contents = fitTotal(
    fetched.map(({ outcome }) => (outcome.ok ? outcome.page : undefined)),
    args.totalChars,
  );
  return {
    results: args.results.map((result, index) => {
      const outcome = fetched[index]?.outcome;
      if (outcome === undefined) return result;
      return outcome.ok
        ? { ...result, content: contents[index] ?? outcome.page.content }
        : { ...result, content_error: outcome.problem.message };
    }),
    pages: fetched.map(({ outcome }, index) => {
      const url = args.results[index]?.url ?? "";
      return outcome.ok ? { url, provider: outcome.page.provider } : { url, problem: outcome.problem };
    }),
    spans: fetched.flatMap((f) => f.spans),
  };
}

/** Room kept in a trimmed page's share for its marker. */
const MARKER_ROOM = 120;

/**
 * Each page's content within `total` characters for all: shares are dealt from the shortest page up, so a
 * page shorter than its share keeps all of it and leaves the rest to longer ones; a page over its share
 * is cut with a marker naming the cap and its full length.
 */
function fitTotal(pages: ReadonlyArray<FetchResult | undefined>, total: number): Array<string | undefined> {
  const order = pages
    .map((page, index) => ({ index, length: page?.content.length ?? 0 }))
    .sort((a, b) => a.length - b.length);
  const contents: Array<string | undefined> = pages.map((page) => page?.content);
  let left = total;
  order.forEach(({ index, length }, position) => {
    const share = Math.floor(left / (order.length - position));
    const page = pages[index];
    if (page !== undefined && length > share) {
      const kept = Math.max(share - MARKER_ROOM, 0);
      contents[index] = cutWithMarker(
        page.content,
        kept,
        page.metadata.total_chars,
        ` to fit include_content's ${total} characters across pages (fetch the URL to read it all)`,
      );
      left -= share;
    } else left -= length;
  });
  return contents;
}
