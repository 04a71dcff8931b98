/** Behaviour particular to the keyless providers: DuckDuckGo's HTML page, SearXNG's 403, Wikipedia URLs. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ProviderError } from "@/lib/engine/shared/errors";
import {
  decodeResultLink,
  duckDuckGoRegion,
  duckduckgo,
  parseResultsPage,
} from "@/lib/providers/search/duckduckgo";
import { searxng } from "@/lib/providers/search/searxng";
import { articleUrl, wikipedia, wikipediaBaseUrl } from "@/lib/providers/search/wikipedia";
import { providerCall } from "@/tests/fakes/provider-call";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";

let fake: FakeProviders;
beforeAll(async () => {
  fake = await startFakeProviders();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.resetScenarios();
  fake.clearRequests();
});

describe("duckduckgo", () => {
  it("decodes uddg redirect links, keeping the target's own query string", () => {
    const target = "https://example.org/a path?q=1&lang=en#frag";
    expect(decodeResultLink(`//duckduckgo.com/l/?uddg=${encodeURIComponent(target)}&rut=abc`)).toBe(target);
    expect(decodeResultLink("https://direct.example/page")).toBe("https://direct.example/page");
  });

  it("skips ads (result--ad and y.js links) and keeps organic order", async () => {
    fake.setScenario("duckduckgo", {
      results: [
        { title: "One", url: "https://one.example/?a=1&b=2", snippet: "first <b>bold</b>" },
        { title: "Two", url: "https://two.example/", snippet: "second" },
      ],
    });
    const { results } = await duckduckgo.search(providerCall(fake.baseUrlFor("duckduckgo")));
    expect(results.map((r) => r.url)).toEqual(["https://one.example/?a=1&b=2", "https://two.example/"]);
    expect(results.some((r) => r.title.includes("Sponsored"))).toBe(false);
    expect(results[0]?.snippet).toBe("first bold");
  });

  it("skips an ad even when only its link gives it away", () => {
    const html = `<div id="links"><div class="result"><h2><a class="result__a" href="https://duckduckgo.com/y.js?ad=1">Ad</a></h2></div>
      <div class="result"><h2><a class="result__a" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Freal.example%2F">Real</a></h2>
      <a class="result__snippet">Real snippet</a></div></div>`;
    expect(parseResultsPage(html)).toEqual([
      { title: "Real", url: "https://real.example/", snippet: "Real snippet" },
    ]);
  });

  it("throws blocked on the HTTP 202 anti-bot page instead of returning nothing", async () => {
    fake.setScenario("duckduckgo", { fault: "ddgAntiBot" });
    const error = await duckduckgo
      .search(providerCall(fake.baseUrlFor("duckduckgo")))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ reason: "blocked", status: 202 });
  });

  it("throws blocked on a 200 page carrying the anomaly challenge form", async () => {
    fake.setScenario("duckduckgo", { fault: "ddgAnomaly" });
    const error = await duckduckgo
      .search(providerCall(fake.baseUrlFor("duckduckgo")))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: "blocked" });
  });

  it("posts like a browser form (no API-client user agent)", async () => {
    await duckduckgo.search(providerCall(fake.baseUrlFor("duckduckgo")));
    const [request] = fake.requests("duckduckgo");
    expect(request?.method).toBe("POST");
    expect(request?.headers["user-agent"]).toMatch(/^Mozilla\//);
    expect(request?.headers.referer).toBe(`${fake.baseUrlFor("duckduckgo")}/`);
  });

  it("maps regions to DuckDuckGo's kl codes, including its exceptions", () => {
    expect(duckDuckGoRegion("us")).toBe("us-en");
    expect(duckDuckGoRegion("de")).toBe("de-de");
    expect(duckDuckGoRegion("gb")).toBe("uk-en");
    expect(duckDuckGoRegion("jp")).toBe("jp-jp");
    // engine_traits.json (SearXNG): Israel is il-en, Saudi Arabia xa-ar, Slovenia sl-sl; a country's language
    // picks among its regions.
    expect(duckDuckGoRegion("il")).toBe("il-en");
    expect(duckDuckGoRegion("sa")).toBe("xa-ar");
    expect(duckDuckGoRegion("si")).toBe("sl-sl");
    expect(duckDuckGoRegion("ca", "fr")).toBe("ca-fr");
    expect(duckDuckGoRegion("ca")).toBe("ca-en");
    expect(duckDuckGoRegion("es")).toBe("es-es");
    expect(duckDuckGoRegion("eg")).toBeUndefined();
    expect(duckDuckGoRegion("zz")).toBeUndefined();
    expect(duckDuckGoRegion(undefined)).toBeUndefined();
  });
});

describe("searxng", () => {
  it("explains a 403 as JSON output being disabled, not as a bad key", async () => {
    fake.setScenario("searxng", { status: 403 });
    const error = await searxng.search(providerCall(fake.baseUrlFor("searxng"))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({
      reason: "http_error",
      status: 403,
      message: "SearXNG returned 403: enable json in search.formats of settings.yml",
    });
  });

  it("has no default base URL: it must be configured with SEARXNG_URL", () => {
    expect(searxng.defaultBaseUrl).toBeNull();
    expect(searxng.baseUrlEnv).toBe("SEARXNG_URL");
  });
});

describe("wikipedia", () => {
  it("strips searchmatch spans from snippets and links to the article", async () => {
    fake.setScenario("wikipedia", {
      results: [
        {
          title: "Rust (programming language)",
          url: "ignored",
          snippet: 'A <span class="searchmatch">Rust</span> &quot;memory-safe&quot; language',
        },
      ],
    });
    const { results } = await wikipedia.search(providerCall(fake.baseUrlFor("wikipedia")));
    expect(results).toEqual([
      {
        title: "Rust (programming language)",
        url: "https://en.wikipedia.org/wiki/Rust_(programming_language)",
        snippet: 'A Rust "memory-safe" language',
        publishedAt: "2024-01-01T00:00:00Z",
      },
    ]);
  });

  it("builds canonical article URLs", () => {
    expect(articleUrl("en.wikipedia.org", "AC/DC: Live, 1992")).toBe(
      "https://en.wikipedia.org/wiki/AC/DC:_Live,_1992",
    );
    expect(articleUrl("en.wikipedia.org", "AT&T")).toBe("https://en.wikipedia.org/wiki/AT%26T");
    expect(articleUrl("en.wikipedia.org", "What?")).toBe("https://en.wikipedia.org/wiki/What%3F");
  });

  it("picks the language's wiki only for the default base URL", () => {
    expect(wikipediaBaseUrl("https://en.wikipedia.org", "de")).toBe("https://de.wikipedia.org/");
    expect(wikipediaBaseUrl("https://en.wikipedia.org", undefined)).toBe("https://en.wikipedia.org");
    expect(wikipediaBaseUrl("http://proxy.internal/wiki", "de")).toBe("http://proxy.internal/wiki");
  });

  it("links to the region's language wiki even behind a proxy", async () => {
    fake.setScenario("wikipedia", { results: [{ title: "Berlin", url: "", snippet: "" }] });
    const { results } = await wikipedia.search(
      providerCall(fake.baseUrlFor("wikipedia"), { options: { region: "de" } }),
    );
    expect(results[0]?.url).toBe("https://de.wikipedia.org/wiki/Berlin");
  });
});
