/** crawl's estimate (`estimate: true`): a crawl reads with the free direct fetcher only. */
import type { z } from "zod";
import { assertScope, type TenantContext } from "@/lib/pipeline/context";
import type { CallEstimate } from "@/lib/pipeline/estimate";
import { parseInput } from "@/lib/pipeline/validate";
import { direct } from "@/lib/providers/fetch/direct";
import { crawlToolInput } from "./crawl-site";

export async function estimateCrawl({
  ctx,
  input,
}: {
  ctx: TenantContext;
  input: z.input<typeof crawlToolInput>;
}): Promise<CallEstimate> {
  assertScope(ctx, "fetch");
  parseInput(crawlToolInput, input); // the call's own input errors
  return { providers: [direct.id], maxCostMicros: 0 };
}
