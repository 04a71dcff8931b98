/**
 * What adapters change in a call so that the provider takes it, and that they say so: a region Brave does
 * not list (its 422 otherwise), a language it does not list, a query over a provider's documented length
 * (Brave 400 characters / 50 words, Tavily 400, DuckDuckGo 499, Wikipedia 300), and the notes reaching the
 * engine's result (`adjustments`). The fake Brave answers 422, with the body Brave sends, to what Brave refuses.
 */
import { describe, expect, it } from "vitest";
import { imageSearchInputSchema } from "@/lib/engine/images/input";
import { runImageSearch } from "@/lib/engine/images/run-image-search";
import { runSearch } from "@/lib/engine/search/run-search";
import { imageProviders } from "@/lib/providers/images";
import { getSearchProvider } from "@/lib/providers/search";
import { IMAGE_WIRES, imageWireId } from "@/tests/fakes/image-wires";
import { NEWS_WIRES } from "@/tests/fakes/news-wires";
import { type ProviderCallOverrides, providerCall } from "@/tests/fakes/provider-call";
import type { FakeProviderId } from "@/tests/fakes/provider-server";
import { setUpFakeProviders } from "@/tests/fakes/set-up-fake-providers";
import { fakeEntry } from "@/tests/unit/search/fake-entries";

const fake = setUpFakeProviders({ ...NEWS_WIRES, ...IMAGE_WIRES });

async function search(id: FakeProviderId, overrides: ProviderCallOverrides) {
  const provider = getSearchProvider(id);
  if (!provider) throw new Error(`no adapter ${id}`);
  const call = providerCall(fake.baseUrlFor(id), overrides);
  const response = await (call.options.topic === "news" && provider.news ? provider.news : provider.search)(
    call,
  );
  const requests = fake.requests(id);
  const request = requests[requests.length - 1];
  if (!request) throw new Error(`${id} sent nothing`);
  return { response, request };
}

/** The query text each adapter sends, wherever it sends it. */
const sentQuery = (id: FakeProviderId, request: { query: Record<string, string>; body: unknown }) => {
  const body = (request.body ?? {}) as Record<string, string>;
  const where: Partial<Record<FakeProviderId, string | undefined>> = {
    brave: request.query.q,
    tavily: body.query,
    duckduckgo: body.q,
    wikipedia: request.query.srsearch,
  };
  return where[id] ?? "";
};

const LONG_TERMS = Array.from({ length: 300 }, (_, i) => `word${i}`).join(" "); // 2,189 characters

describe("Brave country", () => {
  it.each(["sg", "ie", "vn", "cz"])(
    "a region Brave does not list (%s) is sent as ALL and said",
    async (region) => {
      const { response, request } = await search("brave", { options: { region } });
      expect(request.query.country).toBe("ALL");
      expect(response.results.length).toBeGreaterThan(0);
      expect(response.adjustments).toEqual([
        `region "${region}" is not one of the countries Brave takes: sent as ALL (results from any country)`,
      ]);
    },
  );

  it("a listed region is sent uppercase without a note; uk is Brave's GB", async () => {
    const de = await search("brave", { options: { region: "de" } });
    expect(de.request.query.country).toBe("DE");
    expect(de.response.adjustments).toBeUndefined();
    const uk = await search("brave", { options: { region: "uk" } });
    expect(uk.request.query.country).toBe("GB");
  });

  it("news search maps the region the same way", async () => {
    const { response, request } = await search("brave", { options: { region: "sg", topic: "news" } });
    expect(request.path).toBe("/res/v1/news/search");
    expect(request.query.country).toBe("ALL");
    expect(response.adjustments).toHaveLength(1);
  });

  it("image search maps the region the same way, and the engine reports it", async () => {
    const brave = imageProviders.find((p) => p.id === "brave");
    if (!brave) throw new Error("no Brave image adapter");
    const result = await runImageSearch({
      input: imageSearchInputSchema.parse({ query: "aurora", region: "vn" }),
      providers: [{ provider: brave, baseUrl: fake.baseUrlFor(imageWireId("brave")), apiKey: "brave-key-1" }],
    });
    expect(fake.requests(imageWireId("brave"))[0]?.query.country).toBe("ALL");
    expect(result.providers_failed).toEqual([]);
    expect(result.adjustments).toEqual([
      {
        provider: "brave",
        note: 'region "vn" is not one of the countries Brave takes: sent as ALL (results from any country)',
      },
    ]);
  });
});

describe("Brave search_lang", () => {
  it("a language Brave does not list is not sent, and said", async () => {
    const { response, request } = await search("brave", { options: { language: "el" } });
    expect(request.query).not.toHaveProperty("search_lang");
    expect(response.adjustments).toEqual(['language "el" is not one Brave\'s search_lang takes: not sent']);
  });

  it("English in Great Britain is Brave's en-gb", async () => {
    const { request } = await search("brave", { options: { language: "en", region: "gb" } });
    expect(request.query.search_lang).toBe("en-gb");
  });
});

describe("query length", () => {
  // Long words, so that each provider's character limit binds before Brave's 50 words.
  const longWords = Array.from({ length: 150 }, (_, i) => `longer-word-number-${i}`).join(" ");
  it.each([
    ["brave", 400],
    ["tavily", 400],
    ["duckduckgo", 499],
    ["wikipedia", 300],
  ] as const)("%s gets at most %i characters, cut at a word, and the cut is said", async (id, chars) => {
    const { response, request } = await search(id, { query: { terms: longWords } });
    const sent = sentQuery(id, request);
    expect(sent.length).toBeLessThanOrEqual(chars);
    expect(sent.length).toBeGreaterThan(chars - 25);
    expect(longWords.startsWith(`${sent} `)).toBe(true);
    expect(response.adjustments).toHaveLength(1);
    expect(response.adjustments?.[0]).toMatch(
      new RegExp(`^query cut to the ${sent.length} characters ending`),
    );
  });

  it("brave gets at most 50 words, however short they are", async () => {
    const terms = Array.from({ length: 80 }, (_, i) => `w${i}`).join(" ");
    const { response, request } = await search("brave", { query: { terms } });
    expect(request.query.q?.split(" ")).toHaveLength(50);
    expect(response.adjustments?.[0]).toContain("Brave takes at most 400 characters and 50 words");
  });

  it("operators are kept and the free text shortened; a quoted phrase stays whole or goes", async () => {
    const { request } = await search("brave", {
      query: { terms: `${LONG_TERMS} tail of the words`, phrases: ["tail of the"] },
      options: { includeDomains: ["docs.rs"], excludeDomains: ["pinterest.com"] },
    });
    const q = request.query.q ?? "";
    expect(q.endsWith("site:docs.rs -site:pinterest.com")).toBe(true);
    expect(q.length).toBeLessThanOrEqual(400);
    expect((q.match(/"/g) ?? []).length % 2).toBe(0);
  });

  it("operators that leave no room for a word are left out, and named", async () => {
    const includeDomains = Array.from({ length: 30 }, (_, i) => `site-number-${i}.example.org`);
    const { response, request } = await search("brave", {
      query: { terms: "rust async" },
      options: { includeDomains },
    });
    expect(request.query.q).toBe("rust async");
    expect(response.adjustments?.[0]).toContain("left out: site:site-number-0.example.org OR");
  });

  it("a query within the limit is sent as it is, without a note", async () => {
    const { response, request } = await search("brave", { query: { terms: "rust async runtime" } });
    expect(request.query.q).toBe("rust async runtime");
    expect(response.adjustments).toBeUndefined();
  });
});

describe("adjustments in the search result", () => {
  it("runSearch lists each answering provider's notes; a provider that changed nothing adds none", async () => {
    const result = await runSearch({
      input: { query: "rust async", region: "sg" },
      providers: [fakeEntry(fake, "brave"), fakeEntry(fake, "tavily")],
    });
    expect(result.providers_failed).toEqual([]);
    expect(result.adjustments).toEqual([
      {
        provider: "brave",
        note: 'region "sg" is not one of the countries Brave takes: sent as ALL (results from any country)',
      },
    ]);
  });

  it("a provider's kept answer brings its notes back with it", async () => {
    const answered = new Map([
      ["brave", { results: [], adjustments: ['query cut to the 3 characters ending "abc"'] }],
    ]);
    const result = await runSearch({
      input: { query: "abc" },
      providers: [fakeEntry(fake, "brave")],
      answered,
    });
    expect(fake.requests("brave")).toHaveLength(0);
    expect(result.adjustments).toEqual([
      { provider: "brave", note: 'query cut to the 3 characters ending "abc"' },
    ]);
  });
});

describe("SerpApi pages", () => {
  const many = Array.from({ length: 30 }, (_, i) => ({
    title: `Result ${i + 1}`,
    url: `https://example.com/result-${i + 1}`,
    snippet: `Snippet ${i + 1}.`,
  }));

  it("a call for more than a page makes one (billed) search and says it got one page", async () => {
    fake.setScenario("serpapi", { results: many });
    const { response, request } = await search("serpapi", { options: { maxResults: 30 } });
    expect(fake.requests("serpapi")).toHaveLength(1);
    expect(request.query).not.toHaveProperty("num");
    expect(response.results).toHaveLength(10);
    expect(response.adjustments).toEqual([
      "asked for 30 results: SerpApi answers one Google page (about 10) per billed search, and one search was made",
    ]);
  });

  it("a call within a page says nothing", async () => {
    const { response } = await search("serpapi", { options: { maxResults: 10 } });
    expect(response.adjustments).toBeUndefined();
  });
});

describe("result counts over what one request returns", () => {
  it.each([
    ["brave", 20],
    ["tavily", 20],
    ["perplexity", 20],
    ["exa", 25],
    ["jina", 20],
  ] as const)("%s is asked for its most (%i) and the note says so", async (id, most) => {
    const provider = getSearchProvider(id);
    const { response } = await search(id, { options: { maxResults: 50 } });
    expect(response.adjustments).toEqual([
      `asked for 50 results: ${provider?.displayName} gives at most ${most} per request`,
    ]);
  });
});

// youdotcom-typescript-sdk src/models/country.ts and language.ts: Brave's 36 countries; Brave's languages, uppercase,
// and Greek.
describe("You.com country and language", () => {
  it("a listed language is sent in You.com's spelling (JP, ZH-HANT, EL)", async () => {
    const japanese = await search("you", { options: { language: "ja" } });
    expect(japanese.request.query.language).toBe("JP");
    const chinese = await search("you", { options: { language: "zh", region: "tw" } });
    expect(chinese.request.query.language).toBe("ZH-HANT");
    const greek = await search("you", { options: { language: "el" } });
    expect(greek.request.query.language).toBe("EL");
    expect(greek.response.adjustments).toBeUndefined();
  });

  it("an unlisted region or language is not sent, and said", async () => {
    const { response, request } = await search("you", { options: { region: "sg", language: "sw" } });
    expect(request.query).not.toHaveProperty("country");
    expect(request.query).not.toHaveProperty("language");
    expect(response.adjustments).toEqual([
      'region "sg" is not one of the countries You.com takes: not sent',
      'language "sw" is not one You.com\'s language takes: not sent',
    ]);
  });
});

describe("image queries", () => {
  it("Tavily's image search gets at most 400 characters too, and says so", async () => {
    const tavily = imageProviders.find((p) => p.id === "tavily");
    if (!tavily) throw new Error("no Tavily image adapter");
    const query = Array.from({ length: 100 }, (_, i) => `aurora-${i}`).join(" ");
    const response = await tavily.search({
      query,
      options: { maxResults: 10, safesearch: "off" },
      apiKey: "tvly-key-1",
      baseUrl: fake.baseUrlFor(imageWireId("tavily")),
      signal: AbortSignal.timeout(5_000),
    });
    const [request] = fake.requests(imageWireId("tavily"));
    const sent = (request?.body as { query?: string } | undefined)?.query ?? "";
    expect(sent.length).toBeLessThanOrEqual(400);
    expect(query.startsWith(`${sent} `)).toBe(true);
    expect(response.adjustments?.[0]).toContain("Tavily takes at most 400 characters");
  });
});

describe("DuckDuckGo region", () => {
  it("a region DuckDuckGo does not list is not sent, and said", async () => {
    const { response, request } = await search("duckduckgo", { options: { region: "eg" } });
    expect(request.body).not.toHaveProperty("kl");
    expect(response.adjustments).toEqual(['region "eg" is not one of DuckDuckGo\'s regions: not sent']);
  });
});
