/**
 * Crawls in flight per workspace (security L3, SEARCHMUX_MAX_CRAWLS_PER_TENANT): of many crawls started at
 * once in one workspace exactly the cap run and the rest are refused with 429 before any request, on one
 * instance (memory KV) and across two instances sharing Redis; another workspace is not counted against
 * it; a slot is free again once its crawl completed, failed or was aborted. The site holds every request
 * until the test lets it go, so "in flight" is a fact the test controls, not a race against time.
 */
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toErrorResponse } from "@/lib/api/errors";
import { createMemoryKv } from "@/lib/kv/memory";
import type { Kv } from "@/lib/kv/types";
import type { Platform, TenantContext } from "@/lib/pipeline/context";
import { crawlSite } from "@/lib/services/crawl/crawl-site";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { listenOnLoopback } from "@/tests/support/loopback-server";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";
import { testRedisKv } from "@/tests/support/test-redis";

const CAP = 2;
const ENV = { SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1", SEARCHMUX_MAX_CRAWLS_PER_TENANT: String(CAP) };

interface GatedSite {
  origin: string;
  /** Requests that reached the site so far. */
  arrivals(): number;
  /** From now on requests wait for release(). */
  hold(): void;
  /** Answers the waiting requests and every later one at once. */
  release(): void;
  close(): Promise<void>;
}

/** A one-page site (no robots.txt, no links) whose requests wait while it is held. */
async function startGatedSite(): Promise<GatedSite> {
  let arrivals = 0;
  let held = false;
  const waiting: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    arrivals++;
    const answer = () => {
      if (req.url !== "/") return void res.writeHead(404).end("not found");
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(
        `<!DOCTYPE html><html><head><title>Gated</title></head><body><article><h1>Gated</h1><p>${"A page that answers when the test says so. ".repeat(6)}</p></article></body></html>`,
      );
    };
    if (held) waiting.push(answer);
    else answer();
  });
  const listening = await listenOnLoopback(server);
  return {
    origin: listening.origin,
    arrivals: () => arrivals,
    hold: () => {
      held = true;
    },
    release: () => {
      held = false;
      for (const answer of waiting.splice(0)) answer();
    },
    close: listening.close,
  };
}

/** Two instances' KV: one memory store shared (one instance), or two Redis clients (two instances). */
const stores: Array<[string, () => [Kv, Kv]]> = [
  [
    "memory",
    () => {
      const kv = createMemoryKv();
      return [kv, kv];
    },
  ],
  ["redis (two instances)", () => [testRedisKv(), testRedisKv()]],
];
const target = databaseTargets()[0];
if (!target) throw new Error("no database target");

describe.each(stores)("crawls in flight per workspace, on %s KV", (_, createKvs) => {
  let t: TestDatabase;
  let site: GatedSite;
  let instances: Platform[];
  /** Workspace A as each instance sees it, and workspace B. */
  let a: TenantContext[];
  let b: TenantContext;

  beforeAll(async () => {
    t = await target.create();
    site = await startGatedSite();
    instances = createKvs().map((kv) => testPlatform(t.db, { kv, env: ENV }));
    const [first] = instances as [Platform];
    const workspace = async () =>
      (await createTenant({ ctx: systemCtx(first), input: { name: "crawler" } })).id;
    const aId = await workspace();
    a = instances.map((platform) => tenantCtx(platform, aId));
    b = tenantCtx(first, await workspace());
  });
  afterAll(async () => {
    site?.release();
    for (const platform of instances ?? []) {
      await platform.usage.flush();
      await platform.traces.flush();
    }
    for (const kv of new Set(instances?.map((platform) => platform.kv))) await kv.close();
    await site?.close();
    await t?.cleanup();
  });

  /** A one-page crawl (robots.txt, then the page), never from the cache. */
  const crawl = (ctx: TenantContext, options: { url?: string; signal?: AbortSignal } = {}) =>
    crawlSite({
      ctx,
      input: { url: options.url ?? `${site.origin}/`, max_depth: 0, no_cache: true },
      signal: options.signal,
    });

  /** Starts crawls in workspace A, alternating instances; each settles into `refused` or `done`. */
  function startCrawls(count: number, options: { signal?: AbortSignal } = {}) {
    const refused: unknown[] = [];
    const done: unknown[] = [];
    const all = Array.from({ length: count }, (_, i) =>
      crawl(a[i % a.length] as TenantContext, options).then(
        (result) => void done.push(result),
        (error: unknown) => void refused.push(error),
      ),
    );
    return { refused, done, settled: () => Promise.all(all) };
  }

  /** CAP crawls start and reach the site while one more is refused: every slot is free. */
  async function expectEverySlotFree(): Promise<void> {
    const before = site.arrivals();
    site.hold();
    const crawls = startCrawls(CAP + 1);
    await expect.poll(() => crawls.refused.length).toBe(1);
    await expect.poll(() => site.arrivals() - before).toBe(CAP);
    site.release();
    await crawls.settled();
    expect(crawls.done).toHaveLength(CAP);
  }

  it("runs exactly the cap of 6 crawls started at once, refuses the rest before any request, and leaves another workspace alone", async () => {
    const before = site.arrivals();
    site.hold();
    const crawls = startCrawls(6);
    await expect.poll(() => crawls.refused.length).toBe(6 - CAP);
    await expect.poll(() => site.arrivals() - before).toBe(CAP); // each running crawl's robots.txt, held
    for (const error of crawls.refused) {
      const response = toErrorResponse(error, "test");
      expect(response.status).toBe(429);
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await response.json()).toEqual({
        error: {
          code: "rate_limited",
          message: `this workspace already has ${CAP} crawls running, the most allowed at once (SEARCHMUX_MAX_CRAWLS_PER_TENANT); retry when one finishes`,
          details: { limit: CAP },
        },
      });
    }

    const other = crawl(b);
    await expect.poll(() => site.arrivals() - before).toBe(CAP + 1);
    site.release();
    await crawls.settled();
    expect(crawls.done).toHaveLength(CAP);
    await expect(other).resolves.toMatchObject({ counts: { pages: 1 } });
    // The refused crawls asked the site nothing: robots.txt and the page of each crawl that ran.
    expect(site.arrivals() - before).toBe(2 * (CAP + 1));
  });

  it("frees a slot when its crawl completes, fails or is aborted", async () => {
    await expectEverySlotFree(); // after the crawls above completed

    for (let i = 0; i < CAP; i++) {
      const ctx = a[i % a.length] as TenantContext;
      // Refused by the SSRF guard inside the crawl, and a start page the site says is not there.
      await expect(crawl(ctx, { url: "http://10.0.0.1/" })).rejects.toMatchObject({ code: "invalid_input" });
      await expect(crawl(ctx, { url: `${site.origin}/missing` })).rejects.toMatchObject({
        code: "not_found",
      });
    }
    await expectEverySlotFree();

    const before = site.arrivals();
    site.hold();
    const abort = new AbortController();
    const aborted = startCrawls(CAP, { signal: abort.signal });
    await expect.poll(() => site.arrivals() - before).toBe(CAP);
    abort.abort(new Error("the client went away"));
    await aborted.settled();
    site.release();
    await expectEverySlotFree();
  });
});
