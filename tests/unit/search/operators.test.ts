import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { searchInputSchema } from "@/lib/engine/search/input";
import { parseQuery } from "@/lib/engine/search/operators";
import { buildRequestOptions } from "@/lib/engine/search/request-options";
import { generous } from "@/tests/support/generous";

describe("parseQuery", () => {
  it("extracts every operator and leaves the free text", () => {
    const parsed = parseQuery(
      'rust async "zero cost" site:Docs.rs -site:www.reddit.com filetype:PDF intitle:tokio after:2023 before:2024-06',
    );
    expect(parsed).toEqual({
      raw: 'rust async "zero cost" site:Docs.rs -site:www.reddit.com filetype:PDF intitle:tokio after:2023 before:2024-06',
      terms: "rust async zero cost",
      phrases: ["zero cost"],
      sites: ["docs.rs"],
      excludeSites: ["reddit.com"],
      filetype: "pdf",
      intitle: ["tokio"],
      after: "2023-01-01",
      before: "2024-06-01",
    });
  });

  it("accepts ext: as filetype and keeps only the first", () => {
    const parsed = parseQuery("report ext:.docx filetype:pdf");
    expect(parsed.filetype).toBe("docx");
    expect(parsed.terms).toBe("report");
  });

  it("takes quoted operator values", () => {
    const parsed = parseQuery('intitle:"release notes" site:"https://www.example.com/blog" x');
    expect(parsed.intitle).toEqual(["release notes"]);
    expect(parsed.sites).toEqual(["example.com"]);
    expect(parsed.terms).toBe("x");
  });

  it("recognises operator names in any case, only at word start", () => {
    const parsed = parseQuery("SITE:example.com websites:foo mysite:bar");
    expect(parsed.sites).toEqual(["example.com"]);
    expect(parsed.terms).toBe("websites:foo mysite:bar");
  });

  it("deduplicates repeated sites and phrases", () => {
    const parsed = parseQuery('"a b" "a b" site:x.com site:www.x.com');
    expect(parsed.phrases).toEqual(["a b"]);
    expect(parsed.sites).toEqual(["x.com"]);
    expect(parsed.terms).toBe("a b a b");
  });

  it.each([
    ["site:", "site:"],
    ["site: example.com", "site: example.com"],
    ["filetype:", "filetype:"],
    ["intitle:", "intitle:"],
    ['intitle:""', "intitle:"],
    ["before:yesterday", "before:yesterday"],
    ["after:2024-13-01", "after:2024-13-01"],
    ["after:2023-02-30", "after:2023-02-30"],
    ["site:not_a_domain", "site:not_a_domain"],
    ["filetype:toolongextension", "filetype:toolongextension"],
    ["-intitle:x", "-intitle:x"],
  ])("keeps %j as plain text", (raw, terms) => {
    const parsed = parseQuery(raw);
    expect(parsed.terms).toBe(terms);
    expect(parsed).toMatchObject({ sites: [], excludeSites: [], intitle: [], phrases: [] });
    expect(parsed.filetype ?? parsed.after ?? parsed.before).toBeUndefined();
  });

  it("drops an unbalanced quote and reads on", () => {
    const parsed = parseQuery('"unclosed phrase site:example.com');
    expect(parsed.phrases).toEqual([]);
    expect(parsed.sites).toEqual(["example.com"]);
    expect(parsed.terms).toBe("unclosed phrase");
  });

  it("drops stray quotes inside words and treats curly quotes as straight", () => {
    expect(parseQuery('ab"c d').terms).toBe("ab c d");
    expect(parseQuery("\u201Cexact words\u201D here").phrases).toEqual(["exact words"]);
  });

  it("normalises dates: YYYY, YYYY-MM, YYYY-M-D", () => {
    expect(parseQuery("after:2021").after).toBe("2021-01-01");
    expect(parseQuery("after:2021-7").after).toBe("2021-07-01");
    expect(parseQuery("before:2024-2-29").before).toBe("2024-02-29");
    expect(parseQuery("before:2023-2-29").before).toBeUndefined();
  });

  it("handles empty and whitespace-only input", () => {
    expect(parseQuery("").terms).toBe("");
    expect(parseQuery(" \t\n ").terms).toBe("");
    expect(parseQuery('""').phrases).toEqual([]);
  });

  it("never throws and does bounded work on 2,000-character inputs", () => {
    const alphabet = fc.constantFrom(
      '"',
      " ",
      ":",
      "-",
      "site",
      "intitle",
      "a",
      "b.c",
      "after",
      "2024",
      "\u201C",
    );
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 600 }), (parts) => {
        const raw = parts.join("").slice(0, 2_000);
        const parsed = parseQuery(raw);
        expect(parsed.raw).toBe(raw);
        expect(parsed.terms.length).toBeLessThanOrEqual(raw.length);
      }),
      { numRuns: 300 },
    );
    const adversarial = [
      '"'.repeat(2_000),
      'site:"'.repeat(333),
      "intitle:".repeat(250),
      `"${"a ".repeat(999)}`,
      "-site:x.com ".repeat(166),
    ];
    // Each parses in well under a millisecond; the bound catches backtracking gone catastrophic (a regular
    // expression that retries every split of 2,000 characters runs for minutes, if it ends at all).
    for (const raw of adversarial) {
      const started = performance.now();
      parseQuery(raw);
      expect(performance.now() - started).toBeLessThan(generous(50));
    }
  });
});

describe("buildRequestOptions", () => {
  it("merges site:/-site: with include/exclude domains, without duplicates", () => {
    const input = searchInputSchema.parse({
      query: "q site:a.com site:b.com -site:c.com",
      include_domains: ["https://www.A.com/path", "d.com"],
      exclude_domains: ["c.com"],
      time_range: "week",
      region: "DE",
      safesearch: "strict",
      max_results: 7,
      topic: "news",
      language: "DE",
    });
    const options = buildRequestOptions(input, parseQuery(input.query));
    expect(options).toEqual({
      maxResults: 7,
      topic: "news",
      language: "de",
      includeDomains: ["a.com", "d.com", "b.com"],
      excludeDomains: ["c.com"],
      timeRange: "week",
      region: "de",
      safesearch: "strict",
    });
  });

  it("leaves unset options out", () => {
    const input = searchInputSchema.parse({ query: "q" });
    expect(buildRequestOptions(input, parseQuery(input.query))).toEqual({
      maxResults: 10,
      topic: "general",
      includeDomains: [],
      excludeDomains: [],
    });
  });
});

describe("searchInputSchema", () => {
  it("applies defaults and clamps numbers", () => {
    expect(searchInputSchema.parse({ query: "  q  ", max_results: 500, timeout_ms: 999_999 })).toMatchObject({
      query: "q",
      max_results: 50,
      mode: "fanout",
      timeout_ms: 60_000,
      include_domains: [],
      exclude_domains: [],
    });
    expect(searchInputSchema.parse({ query: "q", timeout_ms: 1 }).timeout_ms).toBe(100);
  });

  it.each([
    { query: "" },
    { query: "   " },
    { query: "x".repeat(2_001) },
    { query: "q", max_results: 0 },
    { query: "q", max_results: 2.5 },
    { query: "q", mode: "all" },
    { query: "q", region: "usa" },
    { query: "q", include_domains: ["not a domain"] },
    { query: "q", exclude_domains: [""] },
  ])("rejects %j", (input) => {
    expect(searchInputSchema.safeParse(input).success).toBe(false);
  });

  it("strips unknown keys so transports can pass wider input", () => {
    const parsed = searchInputSchema.parse({ query: "q", no_cache: true, providers: ["brave"] });
    expect(parsed).not.toHaveProperty("no_cache");
  });
});
