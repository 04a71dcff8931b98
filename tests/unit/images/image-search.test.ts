/**
 * Image adapters and runImageSearch through the real HTTP client against the fake provider server: each
 * provider's request (endpoint, parameters, safesearch mapping, key), its answer parsed from the documented
 * shape, fusion by image URL with sources, hostile URLs dropped, and providers that cannot apply the asked
 * safesearch level skipped without a request.
 */
import { describe, expect, it } from "vitest";
import { imageSearchInputSchema } from "@/lib/engine/images/input";
import { runImageSearch } from "@/lib/engine/images/run-image-search";
import type { ImageEntry } from "@/lib/engine/images/types";
import { imageProviders } from "@/lib/providers/images";
import { DEFAULT_IMAGES, type FakeImage, IMAGE_WIRES, imageWireId } from "@/tests/fakes/image-wires";
import { setUpFakeProviders } from "@/tests/fakes/set-up-fake-providers";

const fake = setUpFakeProviders(IMAGE_WIRES);

const KEYS: Readonly<Record<string, string | undefined>> = {
  brave: "brave-key-123456",
  serper: "serper-key-123456",
  serpapi: "serpapi-key-123456",
  tavily: "tvly-key-123456",
  searxng: undefined,
};

function entry(id: string): ImageEntry {
  const provider = imageProviders.find((p) => p.id === id);
  if (!provider) throw new Error(`no image adapter ${id}`);
  return { provider, baseUrl: fake.baseUrlFor(imageWireId(id)), apiKey: KEYS[id] };
}

const search = (ids: readonly string[], input: Record<string, unknown> = {}) =>
  runImageSearch({
    input: imageSearchInputSchema.parse({ query: "aurora", ...input }),
    providers: ids.map(entry),
  });

const onlyRequest = (id: string) => {
  const requests = fake.requests(imageWireId(id));
  expect(requests).toHaveLength(1);
  return requests[0] as NonNullable<(typeof requests)[number]>;
};

describe("image adapters", () => {
  it("Brave: GET /res/v1/images/search with its key, count, country and safesearch strict (moderate too)", async () => {
    await search(["brave"], { region: "de", max_results: 7 });
    expect(onlyRequest("brave")).toMatchObject({
      method: "GET",
      path: "/res/v1/images/search",
      query: { q: "aurora", count: "7", country: "DE", safesearch: "strict" },
      headers: { "x-subscription-token": "brave-key-123456" },
    });
    fake.clearRequests();
    await search(["brave"], { safesearch: "moderate" });
    expect(onlyRequest("brave").query.safesearch).toBe("strict");
    fake.clearRequests();
    await search(["brave"], { safesearch: "off" });
    expect(onlyRequest("brave").query.safesearch).toBe("off");
  });

  it("SerpApi: engine google_images with safe=active for strict and moderate, off for off, key in the query", async () => {
    await search(["serpapi"], { region: "fr" });
    expect(onlyRequest("serpapi")).toMatchObject({
      method: "GET",
      path: "/search.json",
      query: {
        engine: "google_images",
        q: "aurora",
        gl: "fr",
        safe: "active",
        api_key: "serpapi-key-123456",
      },
    });
    fake.clearRequests();
    await search(["serpapi"], { safesearch: "off" });
    expect(onlyRequest("serpapi").query.safe).toBe("off");
  });

  it("SearXNG: categories=images, format json and safesearch 2 / 1 / 0", async () => {
    for (const [level, value] of [
      ["strict", "2"],
      ["moderate", "1"],
      ["off", "0"],
    ] as const) {
      fake.clearRequests();
      await search(["searxng"], { safesearch: level });
      expect(onlyRequest("searxng")).toMatchObject({
        method: "GET",
        path: "/search",
        query: { q: "aurora", format: "json", categories: "images", pageno: "1", safesearch: value },
      });
    }
  });

  it("Serper and Tavily: asked only with safesearch off, with their documented bodies and keys", async () => {
    const result = await search(["serper", "tavily"], { safesearch: "off", region: "us", max_results: 5 });
    expect(onlyRequest("serper")).toMatchObject({
      method: "POST",
      path: "/images",
      body: { q: "aurora", num: 5, gl: "us" },
      headers: { "x-api-key": "serper-key-123456" },
    });
    expect(onlyRequest("tavily")).toMatchObject({
      method: "POST",
      path: "/search",
      body: {
        query: "aurora",
        include_images: true,
        include_image_descriptions: true,
        country: "united states",
      },
      headers: { authorization: "Bearer tvly-key-123456" },
    });
    expect(result.skipped).toEqual([]);
  });

  it("parses each provider's answer into the same image, sized where the provider says", async () => {
    for (const id of ["brave", "serpapi", "serper", "searxng"]) {
      const result = await search([id], { safesearch: "off" });
      expect(result.results[0], id).toEqual({
        image_url: "https://images.example.com/photo-1.jpg",
        thumbnail_url: "https://thumbs.example.com/photo-1.jpg",
        title: "Image 1",
        page_url: "https://example.com/gallery/1",
        width: 1601,
        height: 901,
        score: expect.any(Number),
        sources: [{ provider: id, rank: 1 }],
      });
    }
    // Tavily's images carry a description and nothing else.
    const tavily = await search(["tavily"], { safesearch: "off" });
    expect(tavily.results[0]).toMatchObject({
      image_url: "https://images.example.com/photo-1.jpg",
      title: "Image 1",
      thumbnail_url: null,
      page_url: null,
      width: null,
      height: null,
    });
  });

  it("sends no request without a key and reports the provider not configured", async () => {
    const result = await runImageSearch({
      input: imageSearchInputSchema.parse({ query: "aurora" }),
      providers: [{ ...entry("brave"), apiKey: undefined }],
    });
    expect(fake.requests(imageWireId("brave"))).toEqual([]);
    expect(result.providers_failed).toEqual([
      expect.objectContaining({ provider: "brave", reason: "not_configured" }),
    ]);
  });
});

describe("runImageSearch", () => {
  it("defaults to strict: Serper and Tavily are skipped, never called", async () => {
    const result = await search(["brave", "serper", "tavily"]);
    expect(result.skipped).toEqual([
      { provider: "serper", reason: "safesearch" },
      { provider: "tavily", reason: "safesearch" },
    ]);
    expect(fake.requests(imageWireId("serper"))).toEqual([]);
    expect(fake.requests(imageWireId("tavily"))).toEqual([]);
    expect(result.providers_succeeded.map((p) => p.provider)).toEqual(["brave"]);
  });

  it("fuses by normalised image URL: one image per picture, every provider and its rank in sources", async () => {
    fake.setScenario(imageWireId("serpapi"), {
      payload: [
        { title: "Only SerpApi", imageUrl: "https://cdn.example.net/unique.png" },
        // The same picture as Brave's first, written differently (http, www., a tracking parameter).
        { title: "", imageUrl: "http://www.images.example.com/photo-1.jpg?utm_source=x" },
      ],
    });
    const result = await search(["brave", "serpapi"]);
    const first = result.results[0];
    expect(first?.image_url).toBe("https://images.example.com/photo-1.jpg");
    expect(first?.sources).toEqual([
      { provider: "brave", rank: 1 },
      { provider: "serpapi", rank: 2 },
    ]);
    expect(first?.title).toBe("Image 1");
    expect(result.results.map((image) => image.image_url)).toContain("https://cdn.example.net/unique.png");
    expect(new Set(result.results.map((image) => image.image_url)).size).toBe(result.results.length);
  });

  it("shows a picture listed over both schemes by its https URL, though http ranked first", async () => {
    fake.setScenario(imageWireId("brave"), {
      payload: [{ title: "Over http", imageUrl: "http://pics.example.org/a.jpg" }],
    });
    fake.setScenario(imageWireId("serpapi"), {
      payload: [
        { title: "Elsewhere", imageUrl: "https://pics.example.org/b.jpg" },
        { title: "Over https", imageUrl: "https://pics.example.org/a.jpg" },
      ],
    });
    const result = await search(["brave", "serpapi"]);
    expect(result.results.map((image) => [image.title, image.image_url])).toEqual([
      ["Over http", "https://pics.example.org/a.jpg"],
      ["Elsewhere", "https://pics.example.org/b.jpg"],
    ]);
  });

  it("drops images whose URL is not a public http(s) URL and nulls hostile thumbnails and pages", async () => {
    const hostile: FakeImage[] = [
      { title: "script", imageUrl: "javascript:alert(1)" },
      { title: "data", imageUrl: "data:image/png;base64,AAAA" },
      { title: "loopback", imageUrl: "http://127.0.0.1/secret.png" },
      { title: "metadata", imageUrl: "http://169.254.169.254/latest/meta-data" },
      { title: "internal", imageUrl: "https://intranet.internal/logo.png" },
      { title: "credentials", imageUrl: "https://user:pass@images.example.com/x.png" },
      { title: "port", imageUrl: "https://images.example.com:8443/x.png" },
      {
        title: "Fine image, bad neighbours",
        imageUrl: "https://images.example.com/fine.png",
        thumbnailUrl: "javascript:alert(1)",
        pageUrl: "http://localhost/admin",
        width: 1.5,
        height: -3,
      },
    ];
    fake.setScenario(imageWireId("brave"), { payload: hostile });
    const result = await search(["brave"]);
    expect(result.results).toEqual([
      expect.objectContaining({
        image_url: "https://images.example.com/fine.png",
        thumbnail_url: null,
        page_url: null,
        width: null,
        height: null,
      }),
    ]);
  });

  it("checks image URLs before cutting to max_results: hostile entries listed first push no good image out", async () => {
    const good = (n: number): FakeImage => ({
      title: `Aurora ${n}`,
      imageUrl: `https://images.example.com/aurora-${n}.png`,
    });
    fake.setScenario(imageWireId("serpapi"), {
      payload: [
        { title: "loopback", imageUrl: "http://127.0.0.1/secret.png" },
        { title: "metadata", imageUrl: "http://169.254.169.254/latest/meta-data" },
        { title: "script", imageUrl: "javascript:alert(1)" },
        good(1),
        good(2),
        good(3),
      ],
    });
    const result = await search(["serpapi"], { max_results: 3 });
    expect(result.results.map((image) => image.image_url)).toEqual([1, 2, 3].map((n) => good(n).imageUrl));
  });

  it("keeps one provider's failure to itself and cuts the list to max_results", async () => {
    fake.setScenario(imageWireId("serpapi"), { status: 503 });
    const result = await search(["brave", "serpapi"], { max_results: 2 });
    expect(result.results).toHaveLength(2);
    expect(result.providers_failed).toEqual([
      expect.objectContaining({ provider: "serpapi", reason: "http_error" }),
    ]);
    expect(result.partial).toBe(true);
    expect(DEFAULT_IMAGES).toHaveLength(3);
  });

  it("says how to fix a SearXNG instance without JSON output", async () => {
    fake.setScenario(imageWireId("searxng"), { status: 403 });
    const result = await search(["searxng"]);
    expect(result.providers_failed[0]?.message).toMatch(/enable json in search.formats/);
  });
});
