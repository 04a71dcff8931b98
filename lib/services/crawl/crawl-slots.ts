/**
 * Crawls a workspace may have in flight at once (SEARCHMUX_MAX_CRAWLS_PER_TENANT), on every instance
 * sharing the KV store. Slot i of a workspace is one key, taken with SET NX (atomic in every adapter, so two
 * crawls never hold one slot) and released when the crawl ends, whichever way. The key expires a minute
 * after the crawl's own deadline, which ends every crawl: a slot held by an instance that died frees itself,
 * and a live crawl never outlives its key. A KV key, not a database row: a slot lives minutes at most and
 * needs no history, and the KV is already what rate limits are counted in across instances.
 */
import { randomUUID } from "node:crypto";
import { tenantLimits } from "@/lib/config";
import { log } from "@/lib/observability/logger";
import type { TenantContext } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";

/** How long a slot outlives the crawl's deadline: the pages in flight finish aborting, the result is cached. */
const SLOT_GRACE_SECONDS = 60;

const slotKey = (tenantId: string, slot: number) => `smx:crawl-slot:${tenantId}:${slot}`;

/** A hint for a refused crawl: most crawls finish within this; the others' slots free as they end. */
const CRAWL_RETRY_SECONDS = 15;

/** Runs `crawl` in one of the workspace's crawl slots, or refuses (429 rate_limited) when all are taken. */
export async function withCrawlSlot<T>(
  ctx: TenantContext,
  deadlineMs: number,
  crawl: () => Promise<T>,
): Promise<T> {
  const { maxCrawlsPerTenant } = tenantLimits(ctx.env);
  const holder = randomUUID();
  const ttlSeconds = Math.ceil(deadlineMs / 1000) + SLOT_GRACE_SECONDS;
  let key: string | undefined;
  for (let slot = 0; slot < maxCrawlsPerTenant && key === undefined; slot++) {
    const candidate = slotKey(ctx.tenantId, slot);
    if (await ctx.kv.set(candidate, holder, { ttlSeconds, onlyIfAbsent: true })) key = candidate;
  }
  if (key === undefined) {
    throw new ServiceError(
      "rate_limited",
      `this workspace already has ${maxCrawlsPerTenant} crawls running, the most allowed at once (SEARCHMUX_MAX_CRAWLS_PER_TENANT); retry when one finishes`,
      { limit: maxCrawlsPerTenant },
      CRAWL_RETRY_SECONDS,
    );
  }
  try {
    return await crawl();
  } finally {
    await release(ctx, key, holder);
  }
}

/** Frees the slot if it is still ours; when the KV cannot be reached, its expiry frees it. */
async function release(ctx: TenantContext, key: string, holder: string): Promise<void> {
  try {
    // Ours until its expiry, which no live crawl reaches: nobody else can have taken it in between.
    if ((await ctx.kv.get(key)) === holder) await ctx.kv.del(key);
  } catch (error) {
    log().warn({ err: error, key }, "crawl slot not released; it expires on its own");
  }
}
