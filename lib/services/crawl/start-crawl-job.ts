import type { z } from "zod";
import { checkUrl, SsrfBlocked } from "@/lib/http/ssrf";
import { assertScope, type TenantContext } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { fetchAllowlistFromEnv } from "@/lib/pipeline/providers/operator-providers";
import { parseInput } from "@/lib/pipeline/validate";
import { queueJob } from "@/lib/services/research/queue-job";
import { type CrawlJobView, toCrawlJobView } from "./crawl-job-view";
import { crawlToolInput } from "./crawl-site";

/** A hint for a refused start: a large crawl takes minutes. */
const CRAWL_JOB_RETRY_SECONDS = 60;

/**
 * Queues a crawl as a background job (scope fetch): `async: true`, or more pages than a synchronous crawl
 * reads (the tool table decides, `runsAsJob`). The start URL is refused at once when it names a refused
 * target literally (a private address, a port, credentials); its DNS is checked when the crawl fetches it.
 * At most MAX_ACTIVE_JOBS crawl jobs of a workspace queued or running (queue-job.ts).
 */
export async function startCrawlJob({
  ctx,
  input,
}: {
  ctx: TenantContext;
  input: z.input<typeof crawlToolInput>;
}): Promise<CrawlJobView> {
  assertScope(ctx, "fetch");
  const { no_cache: _noCache, async: _async, ...parsed } = parseInput(crawlToolInput, input);
  try {
    checkUrl(new URL(parsed.url), { allowlist: fetchAllowlistFromEnv(ctx.env) });
  } catch (error) {
    if (error instanceof SsrfBlocked) throw new ServiceError("invalid_input", error.message);
    throw error;
  }
  const row = await queueJob(ctx, {
    kind: "crawl",
    input: parsed,
    progress: { message: "waiting for a worker" },
    retryAfterSeconds: CRAWL_JOB_RETRY_SECONDS,
  });
  return toCrawlJobView(row);
}
