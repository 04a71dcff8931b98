/**
 * Contract between the image search engine (lib/engine/images) and the image adapters
 * (lib/providers/images/<id>.ts). Pure types: no I/O, no env, no database.
 */
import type { SafeSearch } from "@/lib/engine/search/types";
import type {
  ProviderId,
  ProviderRegistration,
  ProviderSpan,
  ResolvedProvider,
  TransportFacts,
} from "@/lib/engine/shared/types";

interface ImageSearchOptions {
  maxResults: number;
  safesearch: SafeSearch;
  /** Two-letter country code, lowercase. */
  region?: string;
}

export interface ImageCall {
  query: string;
  options: ImageSearchOptions;
  apiKey?: string;
  baseUrl: string;
  signal: AbortSignal;
}

/** One image as a provider listed it, URLs not yet checked. */
export interface RawImage {
  imageUrl: string;
  thumbnailUrl?: string | null;
  title?: string | null;
  pageUrl?: string | null;
  width?: number | null;
  height?: number | null;
}

export interface ImageProviderResponse extends TransportFacts {
  images: RawImage[];
  /** What the adapter changed in the call to fit the provider, in words (search's ProviderResponse). */
  adjustments?: string[];
}

export interface ImageProvider extends ProviderRegistration {
  /**
   * The adult-content levels the provider can apply, each with the value its wire takes (null: nothing to
   * send). A level missing here cannot be honoured: the engine skips the provider for it.
   */
  safesearch: Partial<Readonly<Record<SafeSearch, string | null>>>;
  search(call: ImageCall): Promise<ImageProviderResponse>;
}

export type ImageEntry = ResolvedProvider<ImageProvider>;

/** One image fused across providers by its normalised URL. */
export interface FusedImage {
  image_url: string;
  thumbnail_url: string | null;
  title: string;
  page_url: string | null;
  width: number | null;
  height: number | null;
  score: number;
  sources: Array<{ provider: ProviderId; rank: number }>;
}

export type ImageSpan = ProviderSpan<"search">;
