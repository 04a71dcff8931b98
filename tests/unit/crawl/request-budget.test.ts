/**
 * A crawl's outbound requests (security L3): on a big site where every link and sitemap is a chain of five
 * redirects, the site counts no more requests than the crawl's budget (2 × max_pages + 10, under the
 * operator's ceiling), every redirect hop, robots.txt and sitemap included; the crawl says why it stopped.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tenantLimits } from "@/lib/config";
import type { CrawlInputRaw } from "@/lib/engine/crawl/input";
import { runCrawl } from "@/lib/engine/crawl/run-crawl";
import { type RedirectMazeSite, startRedirectMazeSite } from "@/tests/fakes/redirect-maze-site";
import { directEntry, LOOPBACK_ONLY } from "@/tests/unit/fetch/entries";

let site: RedirectMazeSite;

beforeAll(async () => {
  site = await startRedirectMazeSite();
});
afterAll(async () => {
  await site?.close();
});

const { crawlMaxRequests } = tenantLimits({});

describe("a crawl's outbound request budget", () => {
  it.each<{ name: string; input: Partial<CrawlInputRaw>; maxRequests: number; budget: number }>([
    {
      name: "a map crawl of 100 pages (the default)",
      input: { mode: "map" },
      maxRequests: crawlMaxRequests,
      budget: 2 * 100 + 10,
    },
    {
      name: "a map crawl of 500 pages under a ceiling of 300",
      input: { mode: "map", max_pages: 500 },
      maxRequests: 300,
      budget: 300,
    },
    {
      name: "a pages crawl of 50 pages",
      input: { mode: "pages", max_pages: 50 },
      maxRequests: crawlMaxRequests,
      budget: 2 * 50 + 10,
    },
  ])("$name makes at most $budget requests", async ({ input, maxRequests, budget }) => {
    const before = site.requests();
    const result = await runCrawl({
      input: { url: `${site.origin}/`, max_depth: 5, ...input },
      fetcher: directEntry(),
      ssrf: LOOPBACK_ONLY,
      maxRequests,
    });
    const made = site.requests() - before;

    expect(made).toBeLessThanOrEqual(budget);
    // The budget, not the site, ended it: pages were read, and the rest was left queued.
    expect(made).toBeGreaterThan(budget - 6);
    expect(result.pages.length).toBeGreaterThan(0);
    expect(result.stopped).toBe("page_limit");
    expect(result.note).toMatch(new RegExp(`^the crawl's budget of ${budget} outbound requests`));
    // A page whose redirect chain the budget cut short is an error that says so.
    for (const error of result.errors) expect(error.code).toBe("budget_exhausted");
  });
});
