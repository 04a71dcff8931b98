/**
 * Contract between the paper search engine (lib/engine/papers) and the paper adapters
 * (lib/providers/papers/<id>.ts). Pure types: no I/O, no env, no database.
 */
import type {
  ProviderId,
  ProviderRegistration,
  ProviderSpan,
  ResolvedProvider,
  TransportFacts,
} from "@/lib/engine/shared/types";

type PaperSort = "relevance" | "date";

/** Options every adapter receives; what it cannot apply natively the engine filters afterwards. */
export interface PaperSearchOptions {
  maxResults: number;
  sort: PaperSort;
  yearFrom?: number;
  yearTo?: number;
  openAccessOnly: boolean;
}

interface PaperCall {
  query: string;
  options: PaperSearchOptions;
  /** Optional for every paper provider: keys only raise rate limits. */
  apiKey?: string;
  baseUrl: string;
  /** Contact address for polite pools (OpenAlex `mailto`, E-utilities `email`). */
  mailto?: string;
  signal: AbortSignal;
}

/** One paper as a provider returned it, identifiers already normalised by the adapter where it can. */
export interface RawPaper {
  title: string;
  authors: string[];
  year?: number;
  /** ISO date (YYYY-MM-DD) or as much of it as is known. */
  published?: string;
  venue?: string;
  abstract?: string;
  doi?: string;
  arxivId?: string;
  pmid?: string;
  url?: string;
  pdfUrl?: string;
  citationCount?: number;
  openAccess?: boolean;
}

export interface PaperProviderResponse extends TransportFacts {
  papers: RawPaper[];
}

export interface PaperProvider extends ProviderRegistration {
  search(call: PaperCall): Promise<PaperProviderResponse>;
}

export interface PaperEntry extends ResolvedProvider<PaperProvider> {
  mailto?: string;
}

/** One deduplicated paper, merged across providers. */
export interface PaperRecord {
  title: string;
  authors: string[];
  year: number | null;
  published: string | null;
  venue: string | null;
  abstract: string | null;
  doi: string | null;
  arxiv_id: string | null;
  pmid: string | null;
  url: string | null;
  pdf_url: string | null;
  citation_count: number | null;
  open_access: boolean;
  /** Reciprocal Rank Fusion over the providers that listed it. */
  score: number;
  sources: Array<{ provider: ProviderId; rank: number }>;
}

export type PaperSpan = ProviderSpan<"papers">;
