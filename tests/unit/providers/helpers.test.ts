/** Shared adapter helpers: capabilities, text clean-up, query rebuilding, date windows, Tavily country names. */
import { describe, expect, it } from "vitest";
import { supports } from "@/lib/providers/search/adapter-kit";
import { dateRangeParam, dateWindow, usDate } from "@/lib/providers/search/dates";
import { buildQueryText } from "@/lib/providers/search/query-text";
import { tavilyCountry } from "@/lib/providers/search/tavily";
import { cleanText } from "@/lib/providers/search/text";
import { providerCall } from "@/tests/fakes/provider-call";

describe("supports", () => {
  it("sets the filters named and no other, with the query operators given", () => {
    expect(supports({ filters: ["timeRange", "excludeDomains"], queryOperators: ["site"] })).toEqual({
      timeRange: true,
      region: false,
      safesearch: false,
      includeDomains: false,
      excludeDomains: true,
      queryOperators: ["site"],
    });
  });

  it("supports nothing natively when nothing is named", () => {
    const { queryOperators, ...filters } = supports({});
    expect(Object.values(filters)).toEqual([false, false, false, false, false]);
    expect(queryOperators).toEqual([]);
  });
});

describe("cleanText", () => {
  it.each([
    ["<b>Tom</b> &amp; Jerry", "Tom & Jerry"],
    ["a&nbsp;b &#39;c&#39; &quot;d&quot;", "a b 'c' \"d\""],
    ["line one<br>line two</p><p>three", "line one line two three"],
    ["  lots \n\t of   space ", "lots of space"],
    ["plain text", "plain text"],
    [null, ""],
    [undefined, ""],
  ])("%j -> %j", (raw, clean) => {
    expect(cleanText(raw)).toBe(clean);
  });
});

describe("buildQueryText", () => {
  const call = providerCall("http://unused", {
    query: {
      terms: "rust async runtime",
      phrases: ["async runtime", "zero cost"],
      intitle: ["tokio"],
      filetype: "pdf",
    },
    options: { includeDomains: ["docs.rs"], excludeDomains: ["a.com", "b.com"] },
  });

  it("emits every supported operator; phrases are quoted in place or appended", () => {
    expect(buildQueryText(call, ["site", "-site", "filetype", "intitle", "phrase"])).toBe(
      'rust "async runtime" "zero cost" intitle:tokio site:docs.rs -site:a.com -site:b.com filetype:pdf',
    );
  });

  it("keeps intitle words as plain terms and drops other operators when unsupported", () => {
    expect(buildQueryText(call, [])).toBe("rust async runtime tokio");
  });

  it("ORs several include domains", () => {
    const two = providerCall("http://unused", { options: { includeDomains: ["a.com", "b.org"] } });
    expect(buildQueryText(two, ["site"])).toBe("rust async runtime site:a.com OR site:b.org");
  });
});

describe("dates", () => {
  const now = new Date("2025-06-15T12:00:00Z");
  it("starts the window time_range ago", () => {
    expect(dateWindow(providerCall("x", { options: { timeRange: "month" } }), now)).toEqual({
      from: "2025-05-15",
    });
    expect(dateWindow(providerCall("x"), now)).toEqual({});
  });

  it("uses explicit dates instead of time_range", () => {
    const call = providerCall("x", { query: { after: "2020-01-01" }, options: { timeRange: "day" } });
    expect(dateWindow(call, now)).toEqual({ from: "2020-01-01", to: undefined });
    expect(dateRangeParam(dateWindow(call, now), now)).toBe("2020-01-01to2025-06-15");
  });

  it("formats US dates", () => {
    expect(usDate("2024-03-09")).toBe("03/09/2024");
  });
});

describe("tavilyCountry", () => {
  it.each([
    ["us", "united states"],
    ["DE", "germany"],
    ["cz", "czech republic"],
    ["zz", undefined],
  ])("%s -> %s", (region, name) => {
    expect(tavilyCountry(region)).toBe(name);
  });
});
