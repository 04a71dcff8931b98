/**
 * The research job's pure steps: planning sub-queries, choosing pages from their searches, writing the
 * cited report. The caller (lib/services/research) runs the searches and fetches between them. Pure
 * types: no I/O, no env, no database.
 */
import type { CompleteChat, ModelEntry } from "@/lib/engine/grounding/types";
import type { FusedResult } from "@/lib/engine/search/types";
import type { AdmitHook } from "@/lib/engine/shared/types";

/** The operator's model over the caller's wire, with the budget admission of each call. */
export interface ResearchModel {
  model: ModelEntry;
  complete: CompleteChat;
  admit?: AdmitHook;
}

/** One provider that listed a page for one sub-query, at its own rank. */
export interface FoundBy {
  query: string;
  provider: string;
  rank: number;
}

/** One sub-query's fused results, best first. */
export interface SubQueryResults {
  query: string;
  results: ReadonlyArray<Pick<FusedResult, "url" | "title" | "snippet" | "sources" | "publishedAt">>;
}

/** A page chosen to read: fused across sub-queries. */
export interface PageCandidate {
  url: string;
  title: string;
  snippet: string;
  found_by: FoundBy[];
  /** When it was published, as the best-placed listing that gave a date said (ISO 8601). */
  published_at?: string;
  score: number;
}

/** A page the caller read, with its text (Markdown or plain); empty content when the fetch gave nothing. */
export interface ReadPage {
  url: string;
  title: string;
  content: string;
  found_by: FoundBy[];
  published_at?: string;
}

/** A page the report cites as [n]. */
export interface ResearchSource {
  n: number;
  url: string;
  title: string;
  found_by: FoundBy[];
  published_at?: string;
}
