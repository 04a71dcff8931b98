/**
 * Long crawls as jobs: a 300-page crawl runs as a background job under a lease, its status read shows
 * progress and the pages so far, and its end is pushed as a signed crawl.completed webhook; the
 * workspace's cap holds under concurrent starts; a job can be cancelled; another workspace's job is not
 * found. On every database target.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { researchJobs } from "@/lib/db/schema";
import type { Platform, TenantContext } from "@/lib/pipeline/context";
import { cancelCrawlJob, getCrawlJob } from "@/lib/services/crawl/get-crawl-job";
import { startCrawlJob } from "@/lib/services/crawl/start-crawl-job";
import { MAX_ACTIVE_JOBS } from "@/lib/services/research/queue-job";
import { createResearchWorker } from "@/lib/services/research/worker";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { createWebhook } from "@/lib/services/webhooks/create-webhook";
import { deliverWebhooks } from "@/lib/services/webhooks/deliver-webhooks";
import { tools } from "@/lib/tools/table";
import { startsJob } from "@/lib/tools/tool";
import { BIG_SITE_PAGES, type CrawlSite, startCrawlSite } from "@/tests/fakes/crawl-site";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/support/webhook-receiver";

describe.each(databaseTargets())("crawl jobs on $name", (target) => {
  let t: TestDatabase;
  let platform: Platform;
  let site: CrawlSite;
  let receiver: WebhookReceiver;

  const workspace = async (name: string) =>
    tenantCtx(platform, (await createTenant({ ctx: systemCtx(platform), input: { name } })).id);
  const worker = () =>
    createResearchWorker({ concurrency: 1, leaseMs: 30_000, heartbeatMs: 200, maxAttempts: 3 });

  beforeAll(async () => {
    t = await target.create();
    platform = testPlatform(t.db, { env: { SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1" } });
    site = await startCrawlSite();
    receiver = await startWebhookReceiver();
  });

  afterAll(async () => {
    await receiver?.close();
    await site?.close();
    await t?.cleanup();
  });

  it("crawls 300 pages as a job, shows progress while it runs and pushes crawl.completed", async () => {
    expect(BIG_SITE_PAGES).toBeGreaterThan(300);
    const ctx = await workspace("big");
    const webhook = await createWebhook({ ctx, input: { url: receiver.url, events: ["crawl.completed"] } });
    receiver.secret = webhook.secret;
    // More pages than a synchronous crawl reads: the table makes it a job without async.
    const input = { url: `${site.origin}/big-start`, mode: "map" as const, max_pages: 300, max_depth: 3 };
    expect(startsJob(tools.crawl, input)).toBe(false);
    expect(startsJob(tools.crawl, { ...input, mode: "pages" })).toBe(true);
    expect(startsJob(tools.crawl, { url: input.url, async: true })).toBe(true);
    const queued = await startCrawlJob({ ctx, input: { ...input, mode: "pages", max_chars: 100 } });
    expect(queued).toMatchObject({ status: "queued", progress: { pages_done: 0, queued: 0 } });

    const jobs = worker();
    jobs.wake(platform);
    const seen: Array<{ status: string; pages: number }> = [];
    await expect
      .poll(
        async () => {
          const job = await getCrawlJob({ ctx, input: { id: queued.id } });
          seen.push({ status: job.status, pages: job.progress.pages_done });
          return job.status;
        },
        { timeout: 120_000, interval: 50 },
      )
      .toBe("succeeded");
    await jobs.idle();
    const running = seen.filter((s) => s.status === "running");
    expect(running.length).toBeGreaterThan(0);
    for (const [i, s] of seen.entries()) expect(s.pages).toBeGreaterThanOrEqual(seen[i - 1]?.pages ?? 0);

    const done = await getCrawlJob({ ctx, input: { id: queued.id } });
    expect(done).toMatchObject({
      status: "succeeded",
      counts: { pages: 300 },
      stopped: "page_limit",
      progress: { pages_done: 300 },
      trace_id: expect.any(String),
    });
    expect(done.pages).toHaveLength(300);
    expect(done.pages.filter((p) => p.content === undefined || !p.truncated)).toEqual([]);

    const before = receiver.received.length;
    await deliverWebhooks(platform);
    const [pushed] = receiver.received.slice(before);
    expect(pushed).toMatchObject({
      signatureValid: true,
      body: {
        type: "crawl.completed",
        data: {
          id: queued.id,
          status: "succeeded",
          url: input.url,
          mode: "pages",
          pages: 300,
          stopped: "page_limit",
        },
      },
    });
  }, 180_000);

  it("caps a workspace's crawl jobs under concurrent starts; a cancelled one frees its place", async () => {
    const ctx = await workspace("capped");
    const starts = await Promise.allSettled(
      Array.from({ length: MAX_ACTIVE_JOBS + 3 }, () =>
        startCrawlJob({ ctx, input: { url: `${site.origin}/big-start`, async: true } }),
      ),
    );
    const admitted = starts.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
    expect(admitted).toHaveLength(MAX_ACTIVE_JOBS);
    expect(
      starts.filter((s) => s.status === "rejected").map((s) => (s as PromiseRejectedResult).reason),
    ).toEqual(
      Array.from({ length: 3 }, () =>
        expect.objectContaining({ code: "rate_limited", retryAfterSeconds: 60 }),
      ),
    );
    // Claims go oldest first: the newest job is still queued, and is cancelled at once.
    const newest = admitted.sort((x, y) => x.created_at.localeCompare(y.created_at)).at(-1);
    expect(await cancelCrawlJob({ ctx, input: { id: newest?.id ?? "" } })).toMatchObject({
      status: "cancelled",
    });
    await expect(cancelCrawlJob({ ctx, input: { id: newest?.id ?? "" } })).rejects.toMatchObject({
      code: "conflict",
    });
    expect(
      await startCrawlJob({ ctx, input: { url: `${site.origin}/big-start`, async: true } }),
    ).toMatchObject({
      status: "queued",
    });
    // Leave nothing for the other tests' workers.
    await t.db.withSystem((tx) =>
      tx.update(researchJobs).set({ status: "cancelled" }).where(eq(researchJobs.tenantId, ctx.tenantId)),
    );
  });

  it("refuses a private start URL at once, and keeps workspaces apart", async () => {
    const a: TenantContext = await workspace("crawl-a");
    const b = await workspace("crawl-b");
    await expect(
      startCrawlJob({ ctx: a, input: { url: "http://10.0.0.1/", async: true } }),
    ).rejects.toMatchObject({ code: "invalid_input" });
    const job = await startCrawlJob({ ctx: a, input: { url: `${site.origin}/big-start`, async: true } });
    await expect(getCrawlJob({ ctx: b, input: { id: job.id } })).rejects.toMatchObject({ code: "not_found" });
    await expect(cancelCrawlJob({ ctx: b, input: { id: job.id } })).rejects.toMatchObject({
      code: "not_found",
    });
    await expect(
      getCrawlJob({ ctx: { ...a, scopes: ["search"] }, input: { id: job.id } }),
    ).rejects.toMatchObject({
      code: "forbidden",
    });
    await cancelCrawlJob({ ctx: a, input: { id: job.id } });
  });
});
