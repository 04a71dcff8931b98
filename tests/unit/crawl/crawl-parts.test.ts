/** The crawl engine's pure parts: the same-site rule, path globs, sitemap and robots.txt parsing. */
import { describe, expect, it } from "vitest";
import { pageLimit } from "@/lib/engine/crawl/input";
import { MAX_WILDCARD_RULE_CHARS, robotsRules } from "@/lib/engine/crawl/robots";
import { isPageLink, pathMatcher, siteOf, visitKey } from "@/lib/engine/crawl/site";
import { sitemapEntries } from "@/lib/engine/crawl/sitemap";

const url = (href: string) => new URL(href);

describe("same site", () => {
  it("ignores www. and the scheme, but not subdomains or ports", () => {
    expect(siteOf(url("https://www.example.com/a"))).toBe(siteOf(url("http://example.com/b")));
    expect(siteOf(url("https://docs.example.com/"))).not.toBe(siteOf(url("https://example.com/")));
    expect(siteOf(url("http://127.0.0.1:8080/"))).not.toBe(siteOf(url("http://127.0.0.1:8081/")));
    expect(visitKey(url("https://www.example.com/a?x=1#top"))).toBe(
      visitKey(url("http://example.com/a?x=1")),
    );
  });

  it("skips files that are not pages", () => {
    expect(isPageLink(url("https://example.com/logo.PNG"))).toBe(false);
    expect(isPageLink(url("https://example.com/guide.pdf"))).toBe(true);
    expect(isPageLink(url("https://example.com/docs/"))).toBe(true);
  });

  it("matches path globs", () => {
    const match = pathMatcher(["/docs/*", "*.html"]);
    expect(match?.("/docs/intro")).toBe(true);
    expect(match?.("/blog/post.html")).toBe(true);
    expect(match?.("/blog/post")).toBe(false);
    expect(pathMatcher(["/a.b"])?.("/axb")).toBe(false);
    expect(pathMatcher(undefined)).toBeUndefined();
  });

  it("defaults and caps max_pages by mode", () => {
    expect(pageLimit({ mode: "pages" })).toBe(10);
    expect(pageLimit({ mode: "pages", max_pages: 1_000 })).toBe(50);
    expect(pageLimit({ mode: "map" })).toBe(100);
    expect(pageLimit({ mode: "map", max_pages: 1_000 })).toBe(500);
  });
});

describe("sitemaps", () => {
  it("reads a urlset, an index, a plain-text list, and nothing from broken XML", () => {
    const urlset = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc> https://example.com/a?x=1&amp;y=2 </loc></url><url><loc>not a url</loc></url></urlset>`;
    expect(sitemapEntries(urlset, 10)).toEqual({ pages: ["https://example.com/a?x=1&y=2"], sitemaps: [] });
    const index = `<sm:sitemapindex xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:sitemap><sm:loc>https://example.com/s1.xml</sm:loc></sm:sitemap></sm:sitemapindex>`;
    expect(sitemapEntries(index, 10)).toEqual({ pages: [], sitemaps: ["https://example.com/s1.xml"] });
    expect(sitemapEntries("https://example.com/a\nhttps://example.com/b\n", 1)).toEqual({
      pages: ["https://example.com/a"],
      sitemaps: [],
    });
    expect(sitemapEntries("<urlset><url><loc>https://example.com/a", 10)).toEqual({
      pages: [],
      sitemaps: [],
    });
  });
});

describe("robots.txt", () => {
  const robotsUrl = url("https://example.com/robots.txt");
  const body =
    "User-agent: *\nDisallow: /private/\n\nUser-agent: Searchmux\nDisallow: /no-bots/\n\nSitemap: https://example.com/map.xml\n";

  it("applies the rules for Searchmux and lists the sitemaps", () => {
    const rules = robotsRules(robotsUrl, { ok: true, status: 200, text: body });
    expect(rules.refusal(url("https://example.com/no-bots/page"))).toBe("disallowed by robots.txt");
    // A group naming Searchmux replaces the * group for it.
    expect(rules.refusal(url("https://example.com/private/page"))).toBeUndefined();
    expect(rules.refusal(url("https://example.com/open"))).toBeUndefined();
    expect(rules.sitemaps).toEqual(["https://example.com/map.xml"]);
  });

  it("allows everything without a robots.txt, and nothing when it cannot be read (RFC 9309)", () => {
    expect(
      robotsRules(robotsUrl, { ok: true, status: 404, text: "" }).refusal(url("https://example.com/x")),
    ).toBe(undefined);
    expect(
      robotsRules(robotsUrl, { ok: true, status: 503, text: "" }).refusal(url("https://example.com/x")),
    ).toBe("robots.txt answered HTTP 503");
    const unreachable = robotsRules(robotsUrl, {
      ok: false,
      failure: { provider: "direct", reason: "timeout", duration_ms: 1 },
    });
    expect(unreachable.refusal(url("https://example.com/x"))).toMatch(/could not be read \(timeout\)/);
  });

  it("does not evaluate a file of more wildcard rules than it bounds, refusing the crawl and saying why", () => {
    // 2,000 rules of 400 characters of wildcards: matched in full, about 11 s of one core per URL checked.
    const rule = `/${"*a".repeat(200)}b`;
    const hostile = `User-agent: *\n${Array.from({ length: 2_000 }, () => `Disallow: ${rule}`).join("\n")}\n`;
    const rules = robotsRules(robotsUrl, { ok: true, status: 200, text: hostile });
    expect(rules.refusal(url(`https://example.com/${"a".repeat(2_000)}`))).toMatch(
      new RegExp(
        `more wildcard rules than this crawler evaluates \\(over ${MAX_WILDCARD_RULE_CHARS} characters\\)`,
      ),
    );
    // Wildcard rules of the size sites publish are applied.
    const usual = `User-agent: *\n${Array.from({ length: 50 }, (_, i) => `Disallow: /*?session${i}=`).join("\n")}\n`;
    const applied = robotsRules(robotsUrl, { ok: true, status: 200, text: usual });
    expect(applied.refusal(url("https://example.com/page?session7=x"))).toBe("disallowed by robots.txt");
    expect(applied.refusal(url("https://example.com/page"))).toBeUndefined();
  });
});
