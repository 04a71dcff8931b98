/**
 * The similar-pages engine: Exa's findSimilar through the real HTTP client against its documented wire (the
 * request, the page itself left out), and the search the fallback builds from a page.
 */
import { describe, expect, it } from "vitest";
import { withoutPage } from "@/lib/engine/similar/exclude";
import { similarQuery } from "@/lib/engine/similar/query";
import { runSimilar } from "@/lib/engine/similar/run-similar";
import { similarProviders } from "@/lib/providers/similar";
import { IMAGE_WIRES, SIMILAR_PAGES } from "@/tests/fakes/image-wires";
import { setUpFakeProviders } from "@/tests/fakes/set-up-fake-providers";

const fake = setUpFakeProviders(IMAGE_WIRES);
const [exa] = similarProviders;

const run = (url: string, excludeDomains: string[] = [], maxResults = 10) => {
  if (!exa) throw new Error("no similar provider");
  return runSimilar({
    url,
    maxResults,
    excludeDomains,
    entry: { provider: exa, apiKey: "exa-key-123456", baseUrl: fake.baseUrlFor("similar-exa") },
    timeoutMs: 10_000,
  });
};

describe("Exa's findSimilar", () => {
  it("sends the URL, a few more results than asked, the excluded domains and its key", async () => {
    await run("https://blog.example.com/post", ["spam.example"], 5);
    expect(fake.requests("similar-exa")).toEqual([
      expect.objectContaining({
        method: "POST",
        path: "/findSimilar",
        headers: expect.objectContaining({ "x-api-key": "exa-key-123456" }),
        body: {
          url: "https://blog.example.com/post",
          numResults: 7,
          excludeSourceDomain: false,
          excludeDomains: ["spam.example"],
          contents: { text: { maxCharacters: 600 } },
        },
      }),
    ]);
  });

  it("answers in web_search's result shape, without the page itself or excluded domains", async () => {
    fake.setScenario("similar-exa", {
      payload: [
        {
          title: "The page itself",
          url: "http://www.blog.example.com/post/?utm_source=exa",
          snippet: "itself",
        },
        { title: "Excluded", url: "https://sub.spam.example/x", snippet: "spam" },
        ...SIMILAR_PAGES,
      ],
    });
    const result = await run("https://blog.example.com/post", ["spam.example"], 2);
    expect(result.results).toEqual([
      expect.objectContaining({
        title: "Similar page 1",
        url: "https://similar.example.org/page-1",
        snippet: "A page much like the one asked about, number 1.",
        sources: [{ provider: "exa", rank: 3 }],
        snippet_source: "aggregated",
      }),
      expect.objectContaining({ url: "https://similar.example.org/page-2" }),
    ]);
    expect(result.providers_succeeded).toEqual([expect.objectContaining({ provider: "exa", count: 4 })]);
  });

  it("reports a refused key as a failure, never a throw", async () => {
    fake.setScenario("similar-exa", { expectedApiKey: "another-key" });
    const result = await run("https://blog.example.com/post");
    expect(result.results).toEqual([]);
    expect(result.providers_failed).toEqual([
      expect.objectContaining({ provider: "exa", reason: "bad_key" }),
    ]);
    expect(result.partial).toBe(true);
  });
});

describe("the search built from a page", () => {
  it("is the title's words and the words the text uses most that the title lacks", () => {
    const text = `${"Tokio schedules tasks with work stealing. ".repeat(5)}${"Executors poll futures. ".repeat(3)}In 2024 it grew.`;
    expect(similarQuery({ title: "Async runtimes in Rust", text })).toBe(
      "Async runtimes in Rust tokio schedules tasks work stealing executors",
    );
  });

  it("stands without a title, and drops control characters a page title may hide", () => {
    expect(similarQuery({ title: "", text: "Gardening gardening tomatoes" })).toBe("gardening tomatoes");
    expect(similarQuery({ title: "Bad\u0000title\u0007here", text: "" })).toBe("Bad title here");
    expect(similarQuery({ title: " ", text: "" })).toBe("");
  });

  it("leaves out the page (any spelling of its URL, or where it redirected) and excluded domains", () => {
    const results = [
      { url: "https://example.com/a/" },
      { url: "https://moved.example.com/a" },
      { url: "https://news.excluded.org/b" },
      { url: "https://other.example.net/c" },
    ];
    expect(
      withoutPage(results, ["http://www.example.com/a", "https://moved.example.com/a"], ["excluded.org"]),
    ).toEqual([{ url: "https://other.example.net/c" }]);
  });
});
