/**
 * Waterfall fetch providers read their answers as the providers document them (each wire here copies a
 * shape from the provider's own reference or SDK, named beside it). Real adapters and engine against the
 * fake provider server.
 */
import { describe, expect, it } from "vitest";
import { FetchFailed } from "@/lib/engine/fetch/errors";
import { runFetch } from "@/lib/engine/fetch/run-fetch";
import type { FetchProviderEntry } from "@/lib/engine/fetch/types";
import { getFetchProvider } from "@/lib/providers/fetch";
import { DEFAULT_PAGE, FETCH_WIRES } from "@/tests/fakes/fetch-wires";
import { bearer, type FakeWire, json, param } from "@/tests/fakes/provider-server";
import { setUpFakeProviders } from "@/tests/fakes/set-up-fake-providers";
import { fakeFetchEntry, LOOPBACK_ONLY } from "./entries";

const wires: Record<string, FakeWire> = {
  // jina-ai/reader src/services/snapshot-formatter.ts: the target's error status is a warning on a 200.
  "jina-missing": {
    method: "POST",
    path: "/",
    credential: bearer,
    render: () =>
      json({
        code: 200,
        status: 20000,
        data: {
          title: "404 Not Found",
          url: DEFAULT_PAGE.url,
          content: `# Not Found\n\n${"The requested URL was not found on this server. ".repeat(8)}`,
          warning: "Target URL returned error 404: Not Found",
          usage: { tokens: 40 },
        },
      }),
  },
  // firecrawl/firecrawl-docs api-reference/v2-openapi.json: title, description and language are a string
  // or an array of strings.
  "firecrawl-lists": {
    method: "POST",
    path: "/v2/scrape",
    credential: bearer,
    render: () =>
      json({
        success: true,
        data: {
          markdown: DEFAULT_PAGE.markdown,
          metadata: {
            title: ["Provider page", "Provider page | Example"],
            description: ["First description", "Second description"],
            language: ["en"],
            sourceURL: DEFAULT_PAGE.url,
            url: DEFAULT_PAGE.url,
            statusCode: 200,
          },
        },
      }),
  },
  // scrapfly/python-scrapfly scrapfly/api_response.py: a large page is stored apart, `content` its URL.
  "scrapfly-large": {
    method: "GET",
    path: "/scrape",
    credential: param("key"),
    render: () =>
      json({
        config: {},
        context: {},
        result: {
          content: "https://api.scrapfly.io/scrape/large-object/0123456789",
          format: "clob",
          status_code: 200,
          url: DEFAULT_PAGE.url,
          content_type: "text/html",
          success: true,
        },
      }),
  },
};

const fake = setUpFakeProviders({ ...FETCH_WIRES, ...wires });

/** The adapter `id` pointed at the wire `wire` of the fake server. */
const entry = (id: string, wire: string, apiKey: string | null = "sk-test"): FetchProviderEntry => ({
  ...fakeFetchEntry(fake, id, apiKey),
  baseUrl: fake.baseUrlFor(wire),
});

const failure = async (id: string, wire: string) => {
  const error = await runFetch({
    input: { url: DEFAULT_PAGE.url, providers: [id] },
    providers: [entry(id, wire)],
    ssrf: LOOPBACK_ONLY,
  }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(FetchFailed);
  return (error as FetchFailed).providersFailed[0];
};

describe("Jina Reader", () => {
  it("reads the page's HTML from `html` when asked for HTML", async () => {
    const result = await runFetch({
      input: { url: DEFAULT_PAGE.url, providers: ["jina"], format: "html" },
      providers: [entry("jina", "fetch-jina", null)],
      ssrf: LOOPBACK_ONLY,
    });
    expect(result.provider).toBe("jina");
    expect(result.content).toContain("Content fetched through a provider");
    expect(fake.requests("fetch-jina")[0]?.headers["x-return-format"]).toBe("html");
  });

  it("fails the step when Reader says the target answered an error status", async () => {
    expect(await failure("jina", "jina-missing")).toMatchObject({ reason: "http_error", status: 404 });
  });
});

describe("Firecrawl", () => {
  it("takes page facts given as lists (the first one) instead of failing the answer", async () => {
    const result = await runFetch({
      input: { url: DEFAULT_PAGE.url, providers: ["firecrawl"] },
      providers: [entry("firecrawl", "firecrawl-lists")],
      ssrf: LOOPBACK_ONLY,
    });
    expect(result.provider).toBe("firecrawl");
    expect(result.title).toBe("Provider page");
    expect(result.metadata).toMatchObject({ description: "First description", language: "en" });
  });
});

describe("Scrapfly", () => {
  it("refuses a large object's download URL as the page", async () => {
    expect(await failure("scrapfly", "scrapfly-large")).toMatchObject({ reason: "too_large" });
  });
});

describe("ScraperAPI", () => {
  it("waits out ScraperAPI's documented 70-second retry window", () => {
    expect(getFetchProvider("scraperapi")?.defaultTimeoutMs).toBeGreaterThan(70_000);
  });
});
