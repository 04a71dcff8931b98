/**
 * image_search's estimate (`estimate: true`): the image providers the call would ask (its own selection,
 * less those that cannot apply the asked safesearch level and keys paused or behind an open breaker), every
 * one counted as asked and billed. Nothing is called or charged.
 */
import { honours } from "@/lib/engine/images/run-image-search";
import { assertScope, type TenantContext, type VerbArgs } from "@/lib/pipeline/context";
import { askable, type CallEstimate, estimateOf } from "@/lib/pipeline/estimate";
import { selectedProviders } from "@/lib/pipeline/providers/tenant-providers";
import { parseInput } from "@/lib/pipeline/validate";
import { imageProviders } from "@/lib/providers/images";
import { assertSafesearchHonoured, imageSearchToolInput } from "./image-search";

export async function estimateImageSearch({
  ctx,
  input,
}: VerbArgs<TenantContext, typeof imageSearchToolInput>): Promise<CallEstimate> {
  assertScope(ctx, "search");
  const { providers, safesearch } = parseInput(imageSearchToolInput, input);
  const selected = await selectedProviders(ctx, {
    registry: imageProviders,
    wanted: providers,
    tool: "image_search",
  });
  assertSafesearchHonoured(selected, safesearch);
  return estimateOf(
    await askable(
      ctx,
      selected.filter((entry) => honours(entry.provider, safesearch)),
    ),
  );
}
