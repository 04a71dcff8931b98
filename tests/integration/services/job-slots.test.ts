/**
 * An instance's job slots are shared fairly (issue 38): two crawl jobs of one workspace on a site that never
 * answers hold two slots, and another workspace's research job still starts on the same instance while they
 * run, rather than waiting for them to end (up to their 30-minute deadline). By events: the crawls' held
 * requests reached the site, then the research job left the queue while both crawls still ran.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Platform, TenantContext } from "@/lib/pipeline/context";
import { cancelCrawlJob, getCrawlJob } from "@/lib/services/crawl/get-crawl-job";
import { startCrawlJob } from "@/lib/services/crawl/start-crawl-job";
import { getResearch } from "@/lib/services/research/get-research";
import { startResearch } from "@/lib/services/research/start-research";
import {
  createResearchWorker,
  DEFAULT_WORKER_SETTINGS,
  fairShare,
  type ResearchWorker,
} from "@/lib/services/research/worker";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { primaryTarget, type TestDatabase } from "@/tests/support/database";
import { listenOnLoopback } from "@/tests/support/loopback-server";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";
import { fakeProviderEnv } from "@/tests/support/provider-env";

const shared = globalThis as typeof globalThis & { searchmuxResearchWorker?: ResearchWorker };

/**
 * A site whose start page links 40 pages that are never answered: each visit ends only at the fetch's own
 * timeout, four at a time, so a crawl of it runs minutes, far longer than a free slot takes to be claimed.
 */
async function heldSite() {
  const held: http.ServerResponse[] = [];
  const server = await listenOnLoopback(
    http.createServer((request, response) => {
      if (request.url?.startsWith("/held/")) {
        held.push(response);
        return;
      }
      if (request.url === "/" || request.url?.startsWith("/start")) {
        const links = Array.from({ length: 40 }, (_, i) => `<a href="/held/${i}">page ${i}</a>`).join(" ");
        response.writeHead(200, { "content-type": "text/html" });
        response.end(
          `<!DOCTYPE html><html><head><title>Start</title></head><body><nav>${links}</nav><article><h1>Start</h1><p>${"A page of links to pages that take their time. ".repeat(8)}</p></article></body></html>`,
        );
        return;
      }
      response.writeHead(404).end();
    }),
  );
  return {
    origin: server.origin,
    held: () => held.length,
    async close() {
      for (const response of held) response.destroy();
      await server.close();
    },
  };
}

describe.each(primaryTarget())("job slots on $name", (target) => {
  let t: TestDatabase;
  let platform: Platform;
  let site: Awaited<ReturnType<typeof heldSite>>;
  let fake: FakeProviders;
  let ownWorker: ResearchWorker | undefined;
  let worker: ResearchWorker;

  const workspace = async (name: string): Promise<TenantContext> =>
    tenantCtx(platform, (await createTenant({ ctx: systemCtx(platform), input: { name } })).id);

  beforeAll(async () => {
    t = await target.create();
    fake = await startFakeProviders();
    // Research finds nothing to read: its run is not this test's subject, only that it starts.
    fake.setScenario("duckduckgo", { results: [] });
    platform = testPlatform(t.db, {
      env: { ...fakeProviderEnv(fake.url), SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1" },
    });
    site = await heldSite();
    // This instance's worker, as the app has it (its default slots), woken by the starts below.
    ownWorker = shared.searchmuxResearchWorker;
    worker = createResearchWorker({ ...DEFAULT_WORKER_SETTINGS, heartbeatMs: 200 });
    shared.searchmuxResearchWorker = worker;
  });

  afterAll(async () => {
    await site?.close();
    await worker?.idle();
    await fake?.close();
    shared.searchmuxResearchWorker = ownWorker;
    await t?.cleanup();
  });

  it("starts another workspace's research while two crawls of one workspace hold their slots", async () => {
    expect(fairShare(DEFAULT_WORKER_SETTINGS.concurrency)).toBeLessThan(DEFAULT_WORKER_SETTINGS.concurrency);
    const a = await workspace("crawling");
    const crawls = [];
    for (let i = 0; i < 2; i++)
      crawls.push(await startCrawlJob({ ctx: a, input: { url: `${site.origin}/start-${i}`, async: true } }));
    // Both crawls run: each has requests held at the site (four pages at once per crawl).
    await expect.poll(() => site.held(), { timeout: 60_000, interval: 50 }).toBeGreaterThanOrEqual(8);

    const b = await workspace("researching");
    const research = await startResearch({
      ctx: b,
      input: { question: "what do otters eat?", providers: ["duckduckgo"], max_queries: 1 },
    });
    // Bounded by the test's timeout only: on an instance whose slots the crawls hold, it never leaves the
    // queue until they end (30 minutes).
    await expect
      .poll(async () => (await getResearch({ ctx: b, input: { id: research.id } })).status, {
        timeout: 60_000,
        interval: 50,
      })
      .not.toBe("queued");
    for (const crawl of crawls)
      expect((await getCrawlJob({ ctx: a, input: { id: crawl.id } })).status).toBe("running");

    for (const crawl of crawls) await cancelCrawlJob({ ctx: a, input: { id: crawl.id } });
    await worker.idle();
  });
});
