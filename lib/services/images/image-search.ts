/**
 * image_search for a tenant: its image providers (the keys of their web search: Brave, SerpApi, Serper,
 * Tavily; SearXNG where configured) in parallel with budgets, cache and refunds (lib/pipeline/run-call.ts),
 * images fused by URL. A provider that cannot apply the asked safesearch level is skipped, never called or
 * charged; a call none of whose providers can is refused before anything is called.
 */
import { z } from "zod";
import { imageSearchInputSchema } from "@/lib/engine/images/input";
import { honours, runImageSearch } from "@/lib/engine/images/run-image-search";
import type { ImageProvider } from "@/lib/engine/images/types";
import type { SafeSearch } from "@/lib/engine/search/types";
import type { ResolvedProvider } from "@/lib/engine/shared/types";
import { assertScope, type TenantContext, type VerbArgs } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import type { OnProgress } from "@/lib/pipeline/provider-attempts";
import { skippedProviders } from "@/lib/pipeline/providers/skipped";
import { runCall } from "@/lib/pipeline/run-call";
import { noCacheField, parseInput } from "@/lib/pipeline/validate";
import { imageProviders } from "@/lib/providers/images";

export const imageSearchToolInput = imageSearchInputSchema
  .extend({
    providers: z
      .array(z.string().trim().toLowerCase().min(1).max(40))
      .min(1)
      .max(10)
      .optional()
      .describe("Only these provider ids"),
    no_cache: noCacheField,
  })
  .strict();

/** Refuses a call none of whose providers can apply `level`: it would call nothing and find nothing. */
export function assertSafesearchHonoured(
  entries: readonly ResolvedProvider<ImageProvider>[],
  level: SafeSearch,
): void {
  if (entries.some((entry) => honours(entry.provider, level))) return;
  const ids = entries.map((entry) => entry.provider.id).join(", ");
  throw new ServiceError(
    "invalid_input",
    `none of the providers (${ids}) can apply safesearch "${level}": ask with safesearch "off", or add a key for Brave or SerpApi`,
    { safesearch: level, providers: entries.map((entry) => entry.provider.id) },
  );
}

export async function imageSearch({
  ctx,
  input,
  onProgress,
  signal,
}: VerbArgs<TenantContext, typeof imageSearchToolInput> & { onProgress?: OnProgress; signal?: AbortSignal }) {
  assertScope(ctx, "search");
  const { providers, no_cache, ...engineInput } = parseInput(imageSearchToolInput, input);
  const { timeout_ms: _deadline, ...cacheInput } = engineInput;
  return runCall(ctx, {
    onProgress,
    tool: "image_search",
    spanKind: "search",
    registry: imageProviders,
    wanted: providers,
    noCache: no_cache,
    cacheInput,
    authorize: (entries) => assertSafesearchHonoured(entries, engineInput.safesearch),
    run: async (entries, admit) => {
      const result = await runImageSearch({ input: engineInput, providers: entries, admit, signal });
      return { ...result, providers_skipped: skippedProviders(result.spans, result.skipped) };
    },
    succeeded: (result) => result.providers_succeeded.length,
    summarize: (result) => ({
      results: result.results.length,
      top_urls: result.results.slice(0, 5).map((image) => image.image_url),
      ...(result.providers_skipped.length > 0 && { skipped: result.providers_skipped }),
    }),
  });
}

export type ImageSearchResult = Awaited<ReturnType<typeof imageSearch>>;
