/** crawl's estimate (`estimate: true`): a crawl reads with the free direct fetcher only. */
import { assertScope, type TenantContext, type VerbArgs } from "@/lib/pipeline/context";
import type { CallEstimate } from "@/lib/pipeline/estimate";
import { parseInput } from "@/lib/pipeline/validate";
import { direct } from "@/lib/providers/fetch/direct";
import { crawlToolInput } from "./crawl-site";

export async function estimateCrawl({
  ctx,
  input,
}: VerbArgs<TenantContext, typeof crawlToolInput>): Promise<CallEstimate> {
  assertScope(ctx, "fetch");
  parseInput(crawlToolInput, input); // the call's own input errors
  return { providers: [direct.id], maxCostMicros: 0 };
}
