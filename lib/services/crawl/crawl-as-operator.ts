import type { VerbArgs } from "@/lib/pipeline/context";
import { type OperatorContext, runOperatorCall } from "@/lib/pipeline/operator-call";
import { operatorProviderEntries } from "@/lib/pipeline/providers/operator-providers";
import { parseInput } from "@/lib/pipeline/validate";
import { CRAWL_STEPS, crawlSucceeded, crawlThrough, crawlToolInput } from "./crawl-site";

/**
 * A crawl with the operator's settings (the direct fetcher, SEARCHMUX_FETCH_ALLOWLIST for the SSRF guard),
 * no tenant, cache or trace: what the stdio bridge's local mode runs. A start page that could not be read
 * is an error, as for a tenant.
 */
export function crawlAsOperator({ ctx, input }: VerbArgs<OperatorContext, typeof crawlToolInput>) {
  const { no_cache: _, ...parsed } = parseInput(crawlToolInput, input);
  return runOperatorCall({
    tool: "crawl",
    registry: CRAWL_STEPS,
    available: operatorProviderEntries(CRAWL_STEPS, ctx.env),
    wanted: undefined,
    run: (entries) => crawlThrough(entries, { env: ctx.env, input: parsed, signal: ctx.signal }),
    succeeded: crawlSucceeded,
  });
}
