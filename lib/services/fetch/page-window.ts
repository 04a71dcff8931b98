/**
 * fetch's paging: one window of the whole extracted document (as the cache keeps it), `max_chars` long from
 * `offset`, ending at a paragraph, line or word break, so that consecutive windows concatenate to the
 * document exactly (no marker inside `content`; the text for models says what was cut, lib/tools/format.ts).
 */
import { breakAt } from "@/lib/engine/fetch/render";
import type { FetchedContent, FetchResult } from "@/lib/engine/fetch/run-fetch";
import { ServiceError } from "@/lib/pipeline/errors";

interface Paging {
  /** Where this window starts in the document, in characters. */
  offset: number;
  /** Where the next window starts; null when this one reaches the end. */
  next_offset: number | null;
  /** The document's length: what offsets can reach. */
  total_chars: number;
}

export interface Window {
  offset: number;
  maxChars: number;
}

type PagedContent = FetchedContent & Paging;
export type PagedFetch = Omit<FetchResult, keyof FetchedContent | "alternative_results"> &
  PagedContent & { alternative_results?: PagedContent[] };

/** The window of one rendering; `metadata.truncated` says whether anything of the document is left out. */
function windowOf(page: FetchedContent, { offset, maxChars }: Window): PagedContent {
  const total = page.content.length;
  const start = Math.min(offset, total);
  const end = start + breakAt(page.content.slice(start), maxChars);
  const next = end < total ? end : null;
  return {
    ...page,
    content: page.content.slice(start, end),
    // The cached document itself may stop at the cap (MAX_CHARS_CAP): still truncated on its last page.
    metadata: { ...page.metadata, truncated: next !== null || page.metadata.truncated },
    offset: start,
    next_offset: next,
    total_chars: total,
  };
}

/** The window of a whole fetched document and of its second opinion; an offset past the end is invalid. */
export function pageOf(document: FetchResult, window: Window): PagedFetch {
  const total = document.content.length;
  if (window.offset > 0 && window.offset >= total) {
    throw new ServiceError(
      "invalid_input",
      `offset ${window.offset} is past the end of the document (total_chars ${total}); offsets run from 0 to ${Math.max(total - 1, 0)}`,
      { offset: window.offset, total_chars: total },
    );
  }
  const { alternative_results, ...primary } = document;
  const paged: PagedFetch = { ...primary, ...windowOf(document, window) };
  if (alternative_results !== undefined)
    paged.alternative_results = alternative_results.map((alternative) => windowOf(alternative, window));
  return paged;
}
