/**
 * The crawl engine against a loopback site (tests/fakes/crawl-site.ts) through the real direct step:
 * breadth-first order, the same-site rule, robots.txt, the sitemap index, redirects refused per hop,
 * limits, the character budget and the deadline.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { tenantLimits } from "@/lib/config";
import { type CrawlResult, runCrawl } from "@/lib/engine/crawl/run-crawl";
import type { FetchSpan } from "@/lib/engine/fetch/types";
import { SsrfBlocked } from "@/lib/http/ssrf";
import {
  BROKEN_LINKS,
  type CrawlSite,
  LONG_PAGE_CHARS,
  OFF_SITE_URL,
  SLOW_PAGE_MS,
  startCrawlSite,
} from "@/tests/fakes/crawl-site";
import { directEntry, LOOPBACK_ONLY } from "@/tests/unit/fetch/entries";

let site: CrawlSite;
let before: number;

beforeAll(async () => {
  site = await startCrawlSite();
});
afterAll(async () => {
  await site?.close();
});
beforeEach(() => {
  before = site.hits().length;
});

/** The operator's default ceiling on a crawl's requests. */
const { crawlMaxRequests: maxRequests } = tenantLimits({});
const crawl = (input: Record<string, unknown>, onSpan?: (span: FetchSpan) => void) =>
  runCrawl({
    input: { url: `${site.origin}/`, ...input },
    fetcher: directEntry(),
    ssrf: LOOPBACK_ONLY,
    maxRequests,
    onSpan,
  });
const paths = (result: CrawlResult) => result.pages.map((p) => new URL(p.url).pathname);
const newHits = () => site.hits().slice(before);

describe("crawl engine", () => {
  it("maps the whole site breadth-first: robots.txt obeyed, the sitemap's orphan found, other sites left alone", async () => {
    const spans: FetchSpan[] = [];
    const result = await crawl({ mode: "map" }, (span) => spans.push(span));

    expect(result.stopped).toBe("complete");
    // Home, 5 sections, 25 articles, the long page and the sitemap's orphan.
    expect(result.pages).toHaveLength(33);
    expect(result.pages.every((p) => p.content === undefined)).toBe(true);
    expect(result.pages[0]).toMatchObject({ title: "Home", depth: 0 });
    const depths = result.pages.map((p) => p.depth);
    expect(depths).toEqual([...depths].sort((a, b) => a - b));
    expect(paths(result)).toContain("/orphan");
    expect(result.pages.find((p) => p.url.endsWith("/orphan"))).toMatchObject({ title: "Orphan", depth: 1 });
    expect(result.pages.filter((p) => p.title === "Section 1")).toHaveLength(1);

    expect(result.skipped).toEqual([
      { url: `${site.origin}/private/secret`, reason: "disallowed by robots.txt" },
    ]);
    expect(newHits()).not.toContain("/private/secret");
    expect(newHits().filter((p) => p === "/robots.txt")).toHaveLength(1);
    expect(newHits()).not.toContain("/files/manual.zip");

    expect(result.errors).toEqual([
      expect.objectContaining({ url: `${site.origin}/go/metadata`, code: "blocked" }),
      expect.objectContaining({ url: `${site.origin}/go/intranet`, code: "blocked" }),
    ]);
    expect(result.errors.map((e) => e.message).join(" ")).toMatch(/169\.254\.169\.254/);
    expect(result.counts).toEqual({ pages: 33, skipped: 1, errors: 2, off_site: 1 });
    expect(result.pages.some((p) => p.url === OFF_SITE_URL)).toBe(false);

    // One span per fetch: every page, the two refused redirects, robots.txt and the two sitemaps.
    expect(spans).toEqual(result.spans);
    expect(result.spans).toHaveLength(33 + 1 + 2 + 1 + 2);
    expect(result.spans.every((s) => s.provider === "direct" && s.kind === "fetch")).toBe(true);
  });

  it("returns each page's Markdown within max_chars, cuts the very long page and stops at max_pages", async () => {
    const result = await crawl({ max_pages: 50, max_chars: 2_000, include_paths: ["/long", "/section/1*"] });
    const long = result.pages.find((p) => p.url.endsWith("/long"));
    expect(long).toMatchObject({ truncated: true, depth: 1 });
    expect(long?.chars).toBeGreaterThanOrEqual(LONG_PAGE_CHARS);
    expect(long?.content?.length).toBeLessThan(2_200);
    expect(result.pages.find((p) => p.title === "Article 1.1")?.content).toContain("# Article 1.1");
    // include_paths: the other sections are listed as skipped, never fetched.
    expect(result.skipped).toContainEqual({
      url: `${site.origin}/section/2`,
      reason: "excluded by include_paths / exclude_paths",
    });
    expect(newHits()).not.toContain("/section/2");

    const limited = await crawl({ max_pages: 3 });
    expect(limited.pages).toHaveLength(3);
    expect(limited.stopped).toBe("page_limit");
    expect(limited.note).toMatch(/max_pages 3/);
  });

  it("counts pages, not failures, against max_pages: 10 pages past 3 broken links", async () => {
    const result = await crawl({ url: `${site.origin}/broken-start`, mode: "map", max_pages: 10 });
    expect(result.pages).toHaveLength(10);
    expect(result.errors.map((e) => [new URL(e.url).pathname, e.code])).toEqual([
      ["/broken/1", "http_error"],
      ["/broken/2", "http_error"],
      ["/broken/3", "http_error"],
    ]);
    expect(result.stopped).toBe("page_limit");
    expect(result.note).toMatch(/^max_pages 10 reached/);
  });

  it("ends a crawl of a site of broken links after twice max_pages attempts", async () => {
    const result = await crawl({ url: `${site.origin}/all-broken`, mode: "map", max_pages: 10 });
    const broken = newHits().filter((path) => path.startsWith("/broken/"));
    // The start page and 19 broken links: 20 attempts, of the 40 links.
    expect(broken).toHaveLength(19);
    expect(BROKEN_LINKS).toBeGreaterThan(19);
    expect(result.pages.map((p) => p.title)).toEqual(["Only broken links"]);
    expect(result.errors).toHaveLength(19);
    expect(result.stopped).toBe("page_limit");
    expect(result.note).toMatch(/^20 pages were tried \(2 × max_pages 10\), too many of them failed/);
  });

  it("stops at max_depth, and at the result's character budget", async () => {
    const shallow = await crawl({ mode: "map", max_depth: 1, exclude_paths: ["/go/*"] });
    expect(shallow.stopped).toBe("depth");
    expect(Math.max(...shallow.pages.map((p) => p.depth))).toBe(1);
    expect(shallow.errors).toEqual([]);

    before = site.hits().length;
    const home = await crawl({ max_depth: 0 });
    expect(paths(home)).toEqual(["/"]);
    expect(newHits()).not.toContain("/sitemap.xml");

    // The first long page takes half the budget, the second the rest; the others come without content.
    const budget = await crawl({
      url: `${site.origin}/long-start`,
      max_chars: 50_000,
      include_paths: ["/long*"],
    });
    expect(budget.stopped).toBe("char_limit");
    expect(budget.pages.map((p) => p.content?.length ?? 0).filter((n) => n > 40_000)).toHaveLength(2);
    const total = budget.pages.reduce((sum, p) => sum + (p.content?.length ?? 0), 0);
    expect(total).toBeLessThanOrEqual(100_000 + 500);
    expect(budget.pages.at(-1)).toMatchObject({ truncated: true });
    expect(budget.pages.at(-1)?.content ?? "").toBe("");
  });

  it("returns what it has at the deadline", async () => {
    const result = await crawl({
      url: `${site.origin}/slow-start`,
      timeout_ms: 1_000,
      include_paths: ["/slow*"],
    });
    // Returned before /slow answered (it takes SLOW_PAGE_MS, 5× the deadline): the deadline ended the wait.
    expect(SLOW_PAGE_MS).toBeGreaterThanOrEqual(5 * 1_000);
    expect(site.hits()).toContain("/slow");
    expect(site.answered()).not.toContain("/slow");
    expect(result.stopped).toBe("deadline");
    expect(result.note).toMatch(/timeout_ms 1000/);
    expect(paths(result)).toEqual(["/slow-start"]);
    expect(result.errors).toEqual([expect.objectContaining({ url: `${site.origin}/slow`, code: "timeout" })]);
  });

  it("ends a job that reads too few pages a minute, past its grace period, with slow_progress and why", async () => {
    // The floor shortened to windows of 50 ms; /slow answers after SLOW_PAGE_MS, a hundred windows later, so
    // the window it is pending in lists nothing: the floor ends the crawl, not the site's answer.
    const result = await runCrawl({
      input: { url: `${site.origin}/slow-start`, include_paths: ["/slow*"] },
      fetcher: directEntry(),
      ssrf: LOOPBACK_ONLY,
      maxRequests,
      job: true,
      progressFloor: { graceMs: 50, windowMs: 50, minPages: 1 },
    });
    expect(site.answered()).not.toContain("/slow");
    expect(result.stopped).toBe("slow_progress");
    // The start page may or may not be listed by the first window's end (a busy machine): /slow never is.
    expect(result.note).toMatch(
      /the site answers too slowly for a crawl job: [01] pages read in the last 0\.05 s/,
    );
    expect(paths(result)).not.toContain("/slow");
  });

  it("refuses a private start URL before any request, and a start page that redirects to one", async () => {
    await expect(
      runCrawl({
        input: { url: "http://169.254.169.254/" },
        fetcher: directEntry(),
        ssrf: LOOPBACK_ONLY,
        maxRequests,
      }),
    ).rejects.toBeInstanceOf(SsrfBlocked);
    await expect(crawl({ url: `${site.origin}/go/metadata` })).rejects.toBeInstanceOf(SsrfBlocked);
  });

  it("refuses invalid input", async () => {
    await expect(crawl({ url: "ftp://example.com/" })).rejects.toThrow(/only http and https/);
    await expect(crawl({ mode: "everything" })).rejects.toThrow();
    await expect(crawl({ include_paths: ["docs"] })).rejects.toThrow(/path pattern/);
  });
});
