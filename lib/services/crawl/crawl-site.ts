import { z } from "zod";
import { tenantLimits } from "@/lib/config";
import { CRAWL_JOB_LIMITS, type CrawlInput, crawlInputSchema } from "@/lib/engine/crawl/input";
import { type CrawledPage, type CrawlResult, runCrawl } from "@/lib/engine/crawl/run-crawl";
import type { FetchProvider, FetchProviderEntry } from "@/lib/engine/fetch/types";
import { SsrfBlocked } from "@/lib/http/ssrf";
import type { Env } from "@/lib/pipeline/capabilities";
import { assertScope, type TenantContext } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import type { OnProgress } from "@/lib/pipeline/provider-attempts";
import { fetchAllowlistFromEnv, withProviderSettings } from "@/lib/pipeline/providers/operator-providers";
import { runCall } from "@/lib/pipeline/run-call";
import { noCacheField, parseInput } from "@/lib/pipeline/validate";
import { direct } from "@/lib/providers/fetch/direct";
import { pageNotFound } from "@/lib/services/fetch/fetch-document";
import { withCrawlSlot } from "./crawl-slots";

export const crawlToolInput = crawlInputSchema
  .extend({
    no_cache: noCacheField,
    async: z
      .boolean()
      .optional()
      .describe(
        `A job: up to ${CRAWL_JOB_LIMITS.pages} pages (map ${CRAWL_JOB_LIMITS.map}) in ${CRAWL_JOB_LIMITS.deadlineMs / 60_000} min`,
      ),
  })
  .strict();

/** A crawl reads pages with the free direct fetcher only: dozens of pages must not draw on paid steps. */
const CRAWL_STEPS: readonly FetchProvider[] = [direct];

export type CrawlOutcome = CrawlResult & {
  /** The start page's failure when nothing was read (runCall's "every provider failed"). */
  providers_failed: Array<{ provider: string; reason: string }>;
  partial: boolean;
};

/**
 * crawl for a tenant (scope fetch): the same site's pages breadth-first through the SSRF-guarded direct
 * fetcher, robots.txt obeyed, one trace with a span per fetch; complete crawls are cached per tenant.
 * A crawl where the start page could not be read is an error, like a fetch of it: not_found when its
 * site answered 404 or 410, else every provider failed. A crawl that is not
 * answered from the cache takes one of the workspace's crawl slots (crawl-slots.ts) while it runs. This is
 * the synchronous crawl: `async` and larger crawls are jobs (start-crawl-job.ts), which the tool table
 * starts instead; here the page caps of a synchronous crawl apply.
 */
export async function crawlSite({
  ctx,
  input,
  onProgress,
  signal,
}: {
  ctx: TenantContext;
  input: z.input<typeof crawlToolInput>;
  /** Told of each page fetch as it ends. */
  onProgress?: OnProgress;
  /** The caller went away (client disconnect, MCP cancellation): the crawl stops. */
  signal?: AbortSignal;
}) {
  assertScope(ctx, "fetch");
  const { no_cache, async: _async, ...parsed } = parseInput(crawlToolInput, input);
  return crawlCall(ctx, parsed, { noCache: no_cache, signal, onProgress });
}

/**
 * One crawl through the call pipeline (runCall: its trace, the cache, the direct fetcher's admission).
 * Synchronous crawls take a crawl slot; a job (`onPage` given) runs under the job's caps and holds its
 * place in the workspace's job cap instead.
 */
export function crawlCall(
  ctx: TenantContext,
  input: CrawlInput,
  call: {
    noCache?: boolean;
    signal?: AbortSignal;
    onProgress?: OnProgress;
    job?: { onPage(page: CrawledPage, queued: number): void };
  },
) {
  const { job, signal, onProgress } = call;
  const crawl = (entries: readonly FetchProviderEntry[]) =>
    crawlThrough(entries, { env: ctx.env, input, signal, onProgress, job });
  return runCall<FetchProvider, CrawlOutcome>(ctx, {
    tool: "crawl",
    spanKind: "fetch",
    onProgress,
    registry: CRAWL_STEPS,
    // A job's result (its caps) is not a synchronous crawl's: cached apart.
    cacheInput: job ? { ...input, job: true } : input,
    noCache: call.noCache,
    run: (entries) => (job ? crawl(entries) : withCrawlSlot(ctx, input.timeout_ms, () => crawl(entries))),
    succeeded: crawlSucceeded,
    failure: pageNotFound,
    summarize: (outcome) => ({
      mode: outcome.mode,
      pages: outcome.counts.pages,
      skipped: outcome.counts.skipped,
      errors: outcome.counts.errors,
      stopped: outcome.stopped,
      urls: outcome.pages.slice(0, 5).map((page) => page.final_url),
    }),
  });
}

/**
 * The crawl through the direct step of `entries` (the operator's settings applied) within the operator's
 * ceiling on its outbound requests, SSRF refusals as invalid input.
 */
async function crawlThrough(
  entries: readonly FetchProviderEntry[],
  call: {
    env: Env;
    input: CrawlInput;
    signal?: AbortSignal;
    onProgress?: OnProgress;
    job?: { onPage(page: CrawledPage, queued: number): void };
  },
): Promise<CrawlOutcome> {
  const [fetcher] = withProviderSettings(entries, call.env);
  if (fetcher === undefined) throw new Error("unreachable: the direct fetcher is always available");
  try {
    const result = await runCrawl({
      input: call.input,
      fetcher,
      signal: call.signal,
      ssrf: { allowlist: fetchAllowlistFromEnv(call.env) },
      maxRequests: tenantLimits(call.env).crawlMaxRequests,
      onSpan: (span) => call.onProgress?.(span),
      ...(call.job && { job: true, onPage: call.job.onPage }),
    });
    const unread = result.pages.length === 0 && result.skipped.length === 0;
    return {
      ...result,
      providers_failed: unread
        ? result.errors.map((e) => ({ provider: fetcher.provider.id, reason: e.code }))
        : [],
      partial: result.errors.length > 0 || ["deadline", "slow_progress"].includes(result.stopped),
    };
  } catch (error) {
    if (error instanceof SsrfBlocked) throw new ServiceError("invalid_input", error.message);
    throw error;
  }
}

/** A crawl that read nothing, not even a page robots.txt refused, failed like a fetch of its start. */
const crawlSucceeded = (outcome: CrawlOutcome) =>
  outcome.pages.length > 0 || outcome.skipped.length > 0 ? 1 : 0;
