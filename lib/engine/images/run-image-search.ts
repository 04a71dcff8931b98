/**
 * image_search engine entry point: validated input + the caller's image providers in, images fused by URL,
 * per-provider outcomes and spans out. No database, no env. Providers run in parallel with the isolation of
 * every tool (own timeout inside the overall deadline, admission, distinct failure reasons); a provider
 * that cannot apply the asked safesearch level is not called at all and comes back in `skipped`.
 */
import type { SafeSearch } from "@/lib/engine/search/types";
import { linkedAbort } from "@/lib/engine/shared/abort";
import { requestAdjustments } from "@/lib/engine/shared/adjustments";
import { callIsolated } from "@/lib/engine/shared/isolated-call";
import type {
  AdmitHook,
  ProviderFailure,
  ProviderSuccess,
  RequestAdjustment,
} from "@/lib/engine/shared/types";
import { fuseImages } from "./fusion";
import { type ImageSearchInput, imageSearchInputSchema } from "./input";
import type { FusedImage, ImageEntry, ImageProvider, ImageProviderResponse, ImageSpan } from "./types";

export interface RunImageSearchArgs {
  input: ImageSearchInput;
  providers: readonly ImageEntry[];
  admit?: AdmitHook;
  signal?: AbortSignal;
}

export interface ImageSearchResult {
  query: string;
  results: FusedImage[];
  providers_succeeded: ProviderSuccess[];
  providers_failed: ProviderFailure[];
  /** What adapters changed in their providers' requests to fit them, per answering provider. */
  adjustments: RequestAdjustment[];
  /** Providers not called because they cannot apply the asked safesearch level. */
  skipped: Array<{ provider: string; reason: "safesearch" }>;
  spans: ImageSpan[];
  partial: boolean;
  duration_ms: number;
}

/** Whether a provider can apply `level` itself. */
export const honours = (provider: ImageProvider, level: SafeSearch): boolean => level in provider.safesearch;

export async function runImageSearch(args: RunImageSearchArgs): Promise<ImageSearchResult> {
  const origin = performance.now();
  const input = imageSearchInputSchema.parse(args.input);
  const options = { maxResults: input.max_results, safesearch: input.safesearch, region: input.region };
  const called = args.providers.filter((entry) => honours(entry.provider, input.safesearch));
  const skipped = args.providers
    .filter((entry) => !honours(entry.provider, input.safesearch))
    .map((entry) => ({ provider: entry.provider.id, reason: "safesearch" as const }));
  const deadline = linkedAbort(
    [args.signal],
    input.timeout_ms,
    `no answer before the ${input.timeout_ms} ms deadline`,
  );
  const context = { kind: "search" as const, deadline: deadline.signal, admit: args.admit, origin };
  const outcomes = await Promise.all(
    called.map((entry) =>
      callIsolated(
        {
          entry,
          invoke: (signal) =>
            entry.provider.search({
              query: input.query,
              options,
              apiKey: entry.apiKey,
              baseUrl: entry.baseUrl,
              signal,
            }),
          isResponse: isImageResponse,
          count: (response) => response.images.length,
        },
        context,
      ),
    ),
  ).finally(() => deadline.dispose());

  const failed = outcomes.flatMap((outcome) => (outcome.ok ? [] : [outcome.failure]));
  return {
    query: input.query,
    results: fuseImages(
      outcomes.flatMap((outcome) =>
        outcome.ok ? [{ provider: outcome.entry.provider.id, images: outcome.response.images }] : [],
      ),
      input.max_results,
    ),
    providers_succeeded: outcomes.flatMap((outcome) => (outcome.ok ? [outcome.success] : [])),
    providers_failed: failed,
    adjustments: requestAdjustments(
      outcomes.flatMap((outcome) =>
        outcome.ok
          ? [{ provider: outcome.entry.provider.id, adjustments: outcome.response.adjustments }]
          : [],
      ),
    ),
    skipped,
    spans: outcomes.map((outcome) => outcome.span),
    partial: failed.length > 0,
    duration_ms: Math.round(performance.now() - origin),
  };
}

function isImageResponse(value: unknown): value is ImageProviderResponse {
  return (
    typeof value === "object" &&
    value !== null &&
    "images" in value &&
    Array.isArray(value.images) &&
    value.images.every(
      (image: unknown) =>
        typeof image === "object" &&
        image !== null &&
        "imageUrl" in image &&
        typeof image.imageUrl === "string",
    )
  );
}
