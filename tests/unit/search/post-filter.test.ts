import { describe, expect, it } from "vitest";
import { parseQuery } from "@/lib/engine/search/operators";
import { postFilter } from "@/lib/engine/search/post-filter";
import { rankProviderResults } from "@/lib/engine/search/ranked-results";
import type { ProviderCapabilities, ProviderResult, SearchRequestOptions } from "@/lib/engine/search/types";

const NOTHING_NATIVE: ProviderCapabilities = {
  timeRange: false,
  region: false,
  safesearch: false,
  includeDomains: false,
  excludeDomains: false,
  queryOperators: [],
};
const NOW = Date.parse("2025-06-15T12:00:00Z");

function options(overrides: Partial<SearchRequestOptions> = {}): SearchRequestOptions {
  return { maxResults: 10, topic: "general", includeDomains: [], excludeDomains: [], ...overrides };
}

function filter(
  results: ProviderResult[],
  query: string,
  opts: SearchRequestOptions = options(),
  capabilities: ProviderCapabilities = NOTHING_NATIVE,
) {
  const ranked = rankProviderResults("p", results);
  return postFilter(ranked, parseQuery(query), opts, capabilities, NOW).map((item) => [
    item.result.url,
    item.rank,
  ]);
}

const r = (url: string, title = "", snippet = "", publishedAt?: string): ProviderResult =>
  publishedAt === undefined ? { url, title, snippet } : { url, title, snippet, publishedAt };

describe("postFilter", () => {
  const pages = [
    r("https://docs.example.com/a"),
    r("https://example.com/b"),
    r("https://notexample.com/c"),
    r("https://other.org/d"),
  ];

  it("keeps only included domains, subdomains matching, and keeps original ranks", () => {
    expect(filter(pages, "q", options({ includeDomains: ["example.com"] }))).toEqual([
      ["https://docs.example.com/a", 1],
      ["https://example.com/b", 2],
    ]);
  });

  it("drops excluded domains and their subdomains", () => {
    expect(filter(pages, "q", options({ excludeDomains: ["example.com"] }))).toEqual([
      ["https://notexample.com/c", 3],
      ["https://other.org/d", 4],
    ]);
  });

  it("trusts providers that apply domains natively, as a parameter or a query operator", () => {
    const include = options({ includeDomains: ["example.com"], excludeDomains: ["other.org"] });
    expect(
      filter(pages, "q", include, { ...NOTHING_NATIVE, includeDomains: true, excludeDomains: true }),
    ).toHaveLength(4);
    expect(
      filter(pages, "q", include, { ...NOTHING_NATIVE, queryOperators: ["site", "-site"] }),
    ).toHaveLength(4);
    // Only the constraint the provider did not apply is checked.
    expect(filter(pages, "q", include, { ...NOTHING_NATIVE, queryOperators: ["site"] })).toHaveLength(3);
    expect(filter(pages, "q", include, { ...NOTHING_NATIVE, queryOperators: ["-site"] })).toHaveLength(2);
  });

  it("filters filetype by the URL path extension", () => {
    const files = [
      r("https://a.com/report.PDF?dl=1"),
      r("https://a.com/report.html"),
      r("https://a.com/pdf"),
    ];
    expect(filter(files, "report filetype:pdf")).toEqual([["https://a.com/report.PDF?dl=1", 1]]);
    expect(
      filter(files, "report filetype:pdf", options(), { ...NOTHING_NATIVE, queryOperators: ["filetype"] }),
    ).toHaveLength(3);
  });

  it("requires intitle values in the title and phrases in title or snippet, as whole words", () => {
    const results = [
      r("https://a.com/1", "Release Notes: v2", "what changed"),
      r("https://a.com/2", "Notes", "the release, notes and more"),
      r("https://a.com/3", "Releases", "zero-cost abstractions"),
      r("https://a.com/4", "Zero cost", "abstractions everywhere"),
    ];
    expect(filter(results, 'intitle:"release notes"')).toEqual([["https://a.com/1", 1]]);
    expect(filter(results, '"release notes"')).toEqual([
      ["https://a.com/1", 1],
      ["https://a.com/2", 2],
    ]);
    expect(filter(results, '"zero cost abstractions"')).toEqual([
      ["https://a.com/3", 3],
      ["https://a.com/4", 4],
    ]);
    expect(
      filter(results, '"release notes"', options(), { ...NOTHING_NATIVE, queryOperators: ["phrase"] }),
    ).toHaveLength(4);
  });

  it("filters after:/before: by publishedAt, keeping undated results", () => {
    const dated = [
      r("https://a.com/old", "", "", "2022-12-31"),
      r("https://a.com/in", "", "", "2023-06-01T10:00:00Z"),
      r("https://a.com/edge", "", "", "2024-01-01"),
      r("https://a.com/undated"),
      r("https://a.com/garbage", "", "", "3 days ago"),
    ];
    expect(filter(dated, "q after:2023 before:2024")).toEqual([
      ["https://a.com/in", 2],
      ["https://a.com/undated", 4],
      ["https://a.com/garbage", 5],
    ]);
    expect(
      filter(dated, "q after:2023 before:2024", options(), {
        ...NOTHING_NATIVE,
        queryOperators: ["after", "before"],
      }),
    ).toHaveLength(5);
  });

  it("applies time_range from the injected clock unless the provider supports it", () => {
    const dated = [
      r("https://a.com/today", "", "", "2025-06-15T08:00:00Z"),
      r("https://a.com/lastweek", "", "", "2025-06-09"),
    ];
    expect(filter(dated, "q", options({ timeRange: "day" }))).toEqual([["https://a.com/today", 1]]);
    expect(filter(dated, "q", options({ timeRange: "week" }))).toHaveLength(2);
    expect(
      filter(dated, "q", options({ timeRange: "day" }), { ...NOTHING_NATIVE, timeRange: true }),
    ).toHaveLength(2);
  });

  it("is a copy of the input when no constraint applies", () => {
    expect(filter(pages, "plain query")).toHaveLength(4);
  });
});
