/**
 * Contract between the similar-pages engine (lib/engine/similar) and its adapters
 * (lib/providers/similar/<id>.ts): a page's URL in, pages like it out, ranked. Pure types.
 */
import type { ProviderResponse } from "@/lib/engine/search/types";
import type { ProviderRegistration, ResolvedProvider } from "@/lib/engine/shared/types";

interface SimilarCall {
  url: string;
  maxResults: number;
  /** Domains whose pages must not come back (subdomains included). */
  excludeDomains: string[];
  apiKey?: string;
  baseUrl: string;
  signal: AbortSignal;
}

export interface SimilarProvider extends ProviderRegistration {
  findSimilar(call: SimilarCall): Promise<ProviderResponse>;
}

export type SimilarEntry = ResolvedProvider<SimilarProvider>;
