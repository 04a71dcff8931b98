/**
 * Behaviour every search adapter shares, run against the fake provider server in each provider's wire
 * format: parsing and clean-up, credentials, status mapping, malformed bodies, size cap and deadlines.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { SearchProvider } from "@/lib/engine/search/types";
import { ProviderError } from "@/lib/engine/shared/errors";
import { getSearchProvider, searchProviders } from "@/lib/providers/search";
import { articleUrl } from "@/lib/providers/search/wikipedia";
import { providerCall } from "@/tests/fakes/provider-call";
import {
  FAKE_PROVIDER_IDS,
  type FakeProviderId,
  type FakeProviders,
  type FakeResult,
  type RecordedRequest,
  startFakeProviders,
} from "@/tests/fakes/provider-server";

const KEY = "sk-test-0123456789";

/** How each keyed provider must present the key; keyless providers send none. */
const CREDENTIAL: Readonly<
  Record<FakeProviderId, ((request: RecordedRequest) => string | undefined) | null>
> = {
  tavily: (r) => r.headers.authorization,
  brave: (r) => r.headers["x-subscription-token"],
  exa: (r) => r.headers["x-api-key"],
  serper: (r) => r.headers["x-api-key"],
  serpapi: (r) => r.query.api_key,
  kagi: (r) => r.headers.authorization,
  jina: (r) => r.headers.authorization,
  you: (r) => r.headers["x-api-key"],
  linkup: (r) => r.headers.authorization,
  firecrawl: (r) => r.headers.authorization,
  perplexity: (r) => r.headers.authorization,
  duckduckgo: null,
  searxng: null,
  wikipedia: null,
};
const EXPECTED_CREDENTIAL: Partial<Record<FakeProviderId, string>> = {
  tavily: `Bearer ${KEY}`,
  kagi: `Bot ${KEY}`,
  jina: `Bearer ${KEY}`,
  linkup: `Bearer ${KEY}`,
  firecrawl: `Bearer ${KEY}`,
  perplexity: `Bearer ${KEY}`,
};

const FIXTURE: FakeResult[] = [
  {
    title: "Tom &amp; Jerry <b>Show</b>",
    url: "https://first.example/one?x=1&y=2",
    snippet: "First &quot;snippet&quot;\n   with    spaces",
  },
  { title: "Second &#39;result&#39;", url: "https://second.example/two", snippet: "<em>Second</em> snippet" },
  { title: "Third", url: "https://third.example/3", snippet: "Third snippet" },
];

function expectedUrl(id: FakeProviderId, result: FakeResult): string {
  return id === "wikipedia" ? articleUrl("en.wikipedia.org", result.title) : result.url;
}

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

function adapter(id: FakeProviderId): SearchProvider {
  const provider = getSearchProvider(id);
  if (!provider) throw new Error(`no adapter registered for ${id}`);
  return provider;
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe("registry", () => {
  it("registers exactly the providers the fake server speaks, with lowercase unique ids", () => {
    const ids = searchProviders.map((p) => p.id);
    expect([...ids].sort()).toEqual([...FAKE_PROVIDER_IDS].sort());
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z]+$/);
    expect(getSearchProvider("nope")).toBeUndefined();
  });

  it.each(searchProviders.map((p) => [p.id, p] as const))("%s registration is complete", (_id, provider) => {
    const keyed = CREDENTIAL[provider.id as FakeProviderId] !== null;
    expect(provider.keyEnv).toEqual(keyed ? [`${provider.id.toUpperCase()}_API_KEY`] : []);
    expect(provider.baseUrlEnv).toBe(
      provider.id === "searxng" ? "SEARXNG_URL" : `${provider.id.toUpperCase()}_BASE_URL`,
    );
    expect(provider.defaultBaseUrl === null).toBe(provider.id === "searxng");
    expect(provider.docsUrl).toMatch(/^https:\/\//);
    expect(provider.apiVersion.length).toBeGreaterThan(0);
    expect(provider.price.usd_per_request).toBeGreaterThanOrEqual(0);
    expect(provider.price.usd_per_request > 0).toBe(keyed);
    expect(provider.defaultTimeoutMs).toBeGreaterThanOrEqual(5_000);
  });
});

describe.each(FAKE_PROVIDER_IDS.map((id) => [id] as const))("%s adapter", (id) => {
  const keyed = CREDENTIAL[id] !== null;

  it("returns results in provider order with titles and snippets cleaned", async () => {
    fake.setScenario(id, { results: FIXTURE, expectedApiKey: keyed ? KEY : undefined });
    const response = await adapter(id).search(providerCall(fake.baseUrlFor(id), { apiKey: KEY }));
    expect(response.results.map(({ title, url, snippet }) => ({ title, url, snippet }))).toEqual([
      {
        title: "Tom & Jerry Show",
        url: expectedUrl(id, FIXTURE[0] as FakeResult),
        snippet: 'First "snippet" with spaces',
      },
      { title: "Second 'result'", url: expectedUrl(id, FIXTURE[1] as FakeResult), snippet: "Second snippet" },
      { title: "Third", url: expectedUrl(id, FIXTURE[2] as FakeResult), snippet: "Third snippet" },
    ]);
    expect(response.httpStatus).toBe(200);
    expect(response.bytes).toBeGreaterThan(100);
  });

  it("caps the results at maxResults", async () => {
    fake.setScenario(id, { results: FIXTURE });
    const response = await adapter(id).search(
      providerCall(fake.baseUrlFor(id), { options: { maxResults: 2 } }),
    );
    expect(response.results).toHaveLength(2);
  });

  it("returns an empty list when the provider found nothing", async () => {
    fake.setScenario(id, { results: [] });
    const response = await adapter(id).search(providerCall(fake.baseUrlFor(id)));
    expect(response.results).toEqual([]);
  });

  if (keyed) {
    it("sends the API key the way the provider documents it", async () => {
      await adapter(id).search(providerCall(fake.baseUrlFor(id), { apiKey: KEY }));
      const [request] = fake.requests(id);
      expect(request && CREDENTIAL[id]?.(request)).toBe(EXPECTED_CREDENTIAL[id] ?? KEY);
    });

    it("fails with not_configured and sends nothing without a key", async () => {
      const error = await failure(
        adapter(id).search(providerCall(fake.baseUrlFor(id), { apiKey: undefined })),
      );
      expect(error.reason).toBe("not_configured");
      expect(fake.requests(id)).toHaveLength(0);
    });

    it("maps 401 to bad_key without leaking the key", async () => {
      fake.setScenario(id, { expectedApiKey: "another-key-entirely" });
      const error = await failure(adapter(id).search(providerCall(fake.baseUrlFor(id), { apiKey: KEY })));
      expect(error).toMatchObject({ reason: "bad_key", status: 401 });
      expect(error.message).not.toContain(KEY);
    });
  } else {
    it("sends no credentials", async () => {
      await adapter(id).search(providerCall(fake.baseUrlFor(id), { apiKey: undefined }));
      const [request] = fake.requests(id);
      expect(request?.headers.authorization).toBeUndefined();
      expect(request?.headers["x-api-key"]).toBeUndefined();
    });
  }

  it("maps 429 to rate_limited with Retry-After seconds", async () => {
    fake.setScenario(id, { status: 429, retryAfter: "30" });
    const error = await failure(adapter(id).search(providerCall(fake.baseUrlFor(id))));
    expect(error).toMatchObject({ reason: "rate_limited", status: 429, retryAfter: 30 });
  });

  it.each([500, 502, 503])("maps %i to http_error", async (status) => {
    fake.setScenario(id, { status });
    const error = await failure(adapter(id).search(providerCall(fake.baseUrlFor(id))));
    expect(error).toMatchObject({ reason: "http_error", status });
  });

  if (id !== "duckduckgo") {
    it("maps malformed JSON to invalid_response", async () => {
      fake.setScenario(id, { fault: "garbage" });
      const error = await failure(adapter(id).search(providerCall(fake.baseUrlFor(id))));
      expect(error.reason).toBe("invalid_response");
    });

    it("maps an HTML page served instead of JSON to invalid_response", async () => {
      fake.setScenario(id, { fault: "html" });
      const error = await failure(adapter(id).search(providerCall(fake.baseUrlFor(id))));
      expect(error.reason).toBe("invalid_response");
      expect(error.message).toMatch(/HTML/);
    });
  }

  it("maps a body over 5 MB to too_large", async () => {
    fake.setScenario(id, { fault: "huge" });
    const error = await failure(adapter(id).search(providerCall(fake.baseUrlFor(id))));
    expect(error.reason).toBe("too_large");
  });

  it("maps a deadline abort to timeout", async () => {
    fake.setScenario(id, { fault: "hang" });
    const call = providerCall(fake.baseUrlFor(id), { signal: AbortSignal.timeout(150) });
    const error = await failure(adapter(id).search(call));
    expect(error.reason).toBe("timeout");
  });

  it("lets a caller's cancellation propagate unchanged", async () => {
    fake.setScenario(id, { fault: "hang" });
    const controller = new AbortController();
    const cancelled = new Error("client went away");
    setTimeout(() => controller.abort(cancelled), 50);
    await expect(
      adapter(id).search(providerCall(fake.baseUrlFor(id), { signal: controller.signal })),
    ).rejects.toBe(cancelled);
  });

  it("maps a connection reset mid-body to network_error", async () => {
    fake.setScenario(id, { fault: "reset" });
    const error = await failure(adapter(id).search(providerCall(fake.baseUrlFor(id))));
    expect(error.reason).toBe("network_error");
  });
});
