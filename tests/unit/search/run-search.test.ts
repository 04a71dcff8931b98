/**
 * runSearch end to end through the real adapters and the real provider HTTP client, against the fake
 * provider server. Nothing inside the engine is replaced; faults are injected at the HTTP boundary.
 */
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import type { Admission, ProviderEntry } from "@/lib/engine/search/attempt";
import type { SearchInputRaw } from "@/lib/engine/search/input";
import { runSearch } from "@/lib/engine/search/run-search";
import type { ProviderId, SearchProvider } from "@/lib/engine/search/types";
import type { AttemptReport } from "@/lib/engine/shared/types";
import type { FakeProviderId, FakeResult, FakeScenario } from "@/tests/fakes/provider-server";
import { setUpFakeProviders } from "@/tests/fakes/set-up-fake-providers";
import { generous } from "@/tests/support/generous";
import { fakeEntry } from "./fake-entries";

const fake = setUpFakeProviders();

const page = (site: string, n: number, snippet = `About ${site} page ${n}.`): FakeResult => ({
  title: `${site} ${n}`,
  url: `https://${site}/page-${n}`,
  snippet,
});

const called = (id: FakeProviderId) => fake.requests(id).length;
/** What the fake server saw of one provider's requests so far, in order. */
const seenOf = (id: FakeProviderId) => fake.events().flatMap((e) => (e.id === id ? [e.kind] : []));

async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work;
  return { value, ms: performance.now() - started };
}

describe("runSearch — fanout", () => {
  it("calls every provider in parallel and fuses their lists with provenance", async () => {
    const shared = page("shared.org", 1, "Shared page about rust async runtimes.");
    // Each fake answers only once all three requests are in flight at once: one at a time never completes.
    const parallel = { holdUntilInFlight: 3, latencyMs: 150 };
    fake.setScenario("brave", { ...parallel, results: [shared, page("brave.com", 1)] });
    fake.setScenario("tavily", {
      ...parallel,
      results: [page("tavily.com", 1), { ...shared, url: "http://www.shared.org/page-1/" }],
    });
    fake.setScenario("serper", { ...parallel, results: [page("serper.dev", 1)] });

    const result = await runSearch({
      input: { query: "rust async" },
      providers: [fakeEntry(fake, "brave"), fakeEntry(fake, "tavily"), fakeEntry(fake, "serper")],
    });

    expect(fake.maxInFlight()).toBe(3);
    expect(fake.events().map((e) => e.kind)).toEqual([
      ...["arrived", "arrived", "arrived"],
      ...["answered", "answered", "answered"],
    ]);
    expect(result.partial).toBe(false);
    expect(result.providers_failed).toEqual([]);
    expect(result.providers_succeeded.map((s) => [s.provider, s.count])).toEqual([
      ["brave", 2],
      ["tavily", 2],
      ["serper", 1],
    ]);
    expect(result.results[0]).toMatchObject({
      url: "https://shared.org/page-1",
      sources: [
        { provider: "brave", rank: 1 },
        { provider: "tavily", rank: 2 },
      ],
      snippet_source: "aggregated",
    });
    expect(result.results[0]?.score).toBeCloseTo(1 / 61 + 1 / 62, 12);
    expect(result.results).toHaveLength(4);
    expect(result.spans.map((s) => [s.provider, s.outcome, s.status])).toEqual([
      ["brave", "ok", 200],
      ["tavily", "ok", 200],
      ["serper", "ok", 200],
    ]);
    for (const span of result.spans) expect(span.duration_ms).toBeGreaterThanOrEqual(140);
  });

  it("returns by timeout_ms when one provider hangs, reporting it as a timeout", async () => {
    fake.setScenario("brave", { fault: "hang" });
    fake.setScenario("tavily", { results: [page("a.com", 1)] });

    const { value: result, ms } = await timed(
      runSearch({
        input: { query: "q", timeout_ms: 400 },
        providers: [fakeEntry(fake, "brave"), fakeEntry(fake, "tavily")],
      }),
    );

    // The deadline cancels the hung request (the fake sees the client give it up); the bound is generous
    // yet half the default deadline (10 s), so a timeout_ms that is not applied still fails.
    await fake.seen("brave", "aborted");
    expect(ms).toBeLessThan(generous(400));
    expect(result.partial).toBe(true);
    expect(result.results.map((r) => r.url)).toEqual(["https://a.com/page-1"]);
    expect(result.providers_failed).toEqual([
      expect.objectContaining({ provider: "brave", reason: "timeout", duration_ms: expect.any(Number) }),
    ]);
    expect(result.spans.find((s) => s.provider === "brave")?.outcome).toBe("timeout");
  });

  it("returns by the deadline even when an adapter ignores its abort signal", async () => {
    fake.setScenario("brave", { fault: "hang" });
    const brave = fakeEntry(fake, "brave");
    const deaf: SearchProvider = {
      ...brave.provider,
      search: (call) => brave.provider.search({ ...call, signal: new AbortController().signal }),
    };

    const { value: result, ms } = await timed(
      runSearch({ input: { query: "q", timeout_ms: 300 }, providers: [{ ...brave, provider: deaf }] }),
    );

    // Returned with the deaf adapter's request still open at the fake: nothing but the deadline ended it.
    expect(seenOf("brave")).toEqual(["arrived"]);
    expect(ms).toBeLessThan(generous(300));
    expect(result.providers_failed.map((f) => f.reason)).toEqual(["timeout"]);
  });

  it("applies each provider's own timeout inside the overall deadline", async () => {
    // Brave would answer after 2 s, inside the overall 5 s deadline: only its own 150 ms timeout fails it.
    fake.setScenario("brave", { latencyMs: 2_000 });
    fake.setScenario("tavily", { latencyMs: 300, results: [page("a.com", 1)] });

    const result = await runSearch({
      input: { query: "q", timeout_ms: 5_000 },
      providers: [fakeEntry(fake, "brave", { timeoutMs: 150 }), fakeEntry(fake, "tavily")],
    });

    // The client gave brave's request up before the fake answered it, and the call did not wait for it.
    await fake.seen("brave", "aborted");
    expect(seenOf("brave")).toEqual(["arrived", "aborted"]);
    const failure = result.providers_failed[0];
    expect(failure).toMatchObject({ provider: "brave", reason: "timeout" });
    expect(failure?.duration_ms).toBeGreaterThanOrEqual(140);
    expect(result.providers_succeeded.map((s) => s.provider)).toEqual(["tavily"]);
  });

  it("ignores an answer that arrives after the provider's timeout", async () => {
    fake.setScenario("brave", { latencyMs: 250, results: [page("late.com", 1)] });
    fake.setScenario("tavily", { results: [page("early.com", 1)] });

    const result = await runSearch({
      input: { query: "q" },
      providers: [fakeEntry(fake, "brave", { timeoutMs: 100 }), fakeEntry(fake, "tavily")],
    });
    const snapshot = structuredClone(result);
    await new Promise((resolve) => setTimeout(resolve, 400));

    expect(called("brave")).toBe(1);
    expect(result).toEqual(snapshot);
    expect(result.results.map((r) => r.url)).toEqual(["https://early.com/page-1"]);
    expect(result.providers_failed.map((f) => [f.provider, f.reason])).toEqual([["brave", "timeout"]]);
  });

  it("reports every failure with its own reason and never throws when all providers fail", async () => {
    fake.setScenario("tavily", { status: 500 });
    fake.setScenario("brave", { status: 429, retryAfter: "30" });
    fake.setScenario("exa", { fault: "garbage" });
    fake.setScenario("serper", { fault: "html" });
    fake.setScenario("serpapi", { expectedApiKey: "another-key" });
    fake.setScenario("kagi", { fault: "hang" });
    fake.setScenario("searxng", { fault: "reset" });
    fake.setScenario("jina", { fault: "huge", hugeBytes: 6 * 1024 * 1024 });
    fake.setScenario("you", { fault: "slowDrip" });

    const result = await runSearch({
      input: { query: "q", timeout_ms: 1_500 },
      providers: [
        fakeEntry(fake, "tavily"),
        fakeEntry(fake, "brave"),
        fakeEntry(fake, "exa"),
        fakeEntry(fake, "serper"),
        fakeEntry(fake, "serpapi"),
        fakeEntry(fake, "kagi"),
        fakeEntry(fake, "searxng"),
        fakeEntry(fake, "jina"),
        fakeEntry(fake, "you"),
        fakeEntry(fake, "linkup", { apiKey: undefined }),
      ],
    });

    expect(result.results).toEqual([]);
    expect(result.providers_succeeded).toEqual([]);
    expect(result.partial).toBe(true);
    const byProvider = Object.fromEntries(result.providers_failed.map((f) => [f.provider, f]));
    expect(byProvider.tavily).toMatchObject({ reason: "http_error", status: 500 });
    expect(byProvider.brave).toMatchObject({ reason: "rate_limited", status: 429, retryAfter: 30 });
    expect(byProvider.exa).toMatchObject({ reason: "invalid_response" });
    expect(byProvider.serper).toMatchObject({ reason: "invalid_response" });
    expect(byProvider.serpapi).toMatchObject({ reason: "bad_key", status: 401 });
    expect(byProvider.kagi).toMatchObject({ reason: "timeout" });
    expect(byProvider.searxng).toMatchObject({ reason: "network_error" });
    expect(byProvider.jina).toMatchObject({ reason: "too_large" });
    expect(byProvider.you).toMatchObject({ reason: "timeout" });
    expect(byProvider.linkup).toMatchObject({ reason: "not_configured", duration_ms: 0 });
    expect(called("linkup")).toBe(0);
    expect(result.spans).toHaveLength(10);
    for (const failure of result.providers_failed) {
      expect(failure.message ?? "").not.toContain("sk-test");
    }
  });

  it("reports a provider with no results as an empty success", async () => {
    fake.setScenario("brave", { results: [] });
    const result = await runSearch({ input: { query: "q" }, providers: [fakeEntry(fake, "brave")] });
    expect(result.providers_succeeded).toEqual([expect.objectContaining({ provider: "brave", count: 0 })]);
    expect(result.spans[0]?.outcome).toBe("empty");
    expect(result.partial).toBe(false);
  });

  it("stops waiting when the caller aborts", async () => {
    fake.setScenario("brave", { fault: "hang" });
    const controller = new AbortController();
    void fake.seen("brave", "arrived").then(() => controller.abort());
    // Cancelled once the request is in flight; the message says the caller's signal ended the wait, not the
    // default deadline.
    const result = await runSearch({
      input: { query: "q" },
      providers: [fakeEntry(fake, "brave")],
      signal: controller.signal,
    });
    await fake.seen("brave", "aborted");
    expect(result.providers_failed).toEqual([
      expect.objectContaining({ reason: "timeout", message: "search cancelled" }),
    ]);
  });

  it("leaves no listener on the caller's signal", async () => {
    const controller = new AbortController();
    fake.setScenario("tavily", { status: 500 });
    await runSearch({
      input: { query: "q" },
      providers: [fakeEntry(fake, "brave"), fakeEntry(fake, "tavily")],
      signal: controller.signal,
    });
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("calls each provider id once even if listed twice", async () => {
    await runSearch({
      input: { query: "q" },
      providers: [fakeEntry(fake, "brave"), fakeEntry(fake, "brave")],
    });
    expect(called("brave")).toBe(1);
  });
});

describe("runSearch — admission", () => {
  it("skips refused providers without calling them and reports why", async () => {
    const asked: ProviderId[] = [];
    const admit = async (id: ProviderId): Promise<Admission> => {
      asked.push(id);
      if (id === "brave") return { ok: false, reason: "budget_exhausted" };
      if (id === "tavily") return { ok: false, reason: "breaker_open" };
      return { ok: true };
    };
    const result = await runSearch({
      input: { query: "q" },
      providers: [fakeEntry(fake, "brave"), fakeEntry(fake, "tavily"), fakeEntry(fake, "serper")],
      admit,
    });

    expect(asked.sort()).toEqual(["brave", "serper", "tavily"]);
    expect(called("brave")).toBe(0);
    expect(called("tavily")).toBe(0);
    expect(called("serper")).toBe(1);
    expect(result.providers_failed).toEqual([
      expect.objectContaining({ provider: "brave", reason: "budget_exhausted", duration_ms: 0 }),
      expect.objectContaining({ provider: "tavily", reason: "breaker_open", duration_ms: 0 }),
    ]);
    expect(result.spans.map((s) => [s.provider, s.outcome])).toEqual([
      ["brave", "skipped_budget"],
      ["tavily", "skipped_breaker"],
      ["serper", "ok"],
    ]);
    expect(result.partial).toBe(true);
  });

  it("does not admit providers that are not configured", async () => {
    const asked: ProviderId[] = [];
    await runSearch({
      input: { query: "q" },
      providers: [fakeEntry(fake, "brave", { apiKey: "" })],
      admit: async (id) => {
        asked.push(id);
        return { ok: true };
      },
    });
    expect(asked).toEqual([]);
  });

  it("treats a failing admission hook as a refusal, not a crash", async () => {
    const result = await runSearch({
      input: { query: "q" },
      providers: [fakeEntry(fake, "brave")],
      admit: async () => {
        throw new Error("database unavailable");
      },
    });
    expect(called("brave")).toBe(0);
    expect(result.providers_failed).toEqual([
      expect.objectContaining({
        provider: "brave",
        reason: "network_error",
        message: "admission check failed: database unavailable",
      }),
    ]);
  });
});

describe("runSearch — whose fault a failure is (what circuit breakers count)", () => {
  async function attemptOf(entry: ProviderEntry, input: Partial<SearchInputRaw> = {}, signal?: AbortSignal) {
    let report: AttemptReport | undefined;
    const result = await runSearch({
      input: { query: "q", ...input },
      providers: [entry],
      signal,
      admit: async () => ({ ok: true, settled: (attempt) => (report = attempt) }),
    });
    return { reason: result.providers_failed[0]?.reason, providerFault: report?.providerFault };
  }

  it("a caller's short deadline or cancellation is not the provider's fault, still reported as a timeout", async () => {
    fake.setScenario("brave", { latencyMs: 1_000 });
    expect(await attemptOf(fakeEntry(fake, "brave"), { timeout_ms: 100 })).toEqual({
      reason: "timeout",
      providerFault: false,
    });
    const caller = new AbortController();
    setTimeout(() => caller.abort(), 50);
    expect(await attemptOf(fakeEntry(fake, "brave"), {}, caller.signal)).toEqual({
      reason: "timeout",
      providerFault: false,
    });
  });

  it("no answer within the provider's own timeout, or half of it when the deadline ends the wait, is", async () => {
    fake.setScenario("brave", { latencyMs: 1_000 });
    expect(await attemptOf(fakeEntry(fake, "brave", { timeoutMs: 150 }), { timeout_ms: 5_000 })).toEqual({
      reason: "timeout",
      providerFault: true,
    });
    expect(await attemptOf(fakeEntry(fake, "brave", { timeoutMs: 300 }), { timeout_ms: 200 })).toEqual({
      reason: "timeout",
      providerFault: true,
    });
  });

  it("5xx, malformed answers and broken connections are; refusals, 4xx and our own code throwing are not", async () => {
    const cases: Array<[FakeScenario, string, boolean]> = [
      [{ status: 503 }, "http_error", true],
      [{ fault: "garbage" }, "invalid_response", true],
      [{ fault: "reset" }, "network_error", true],
      [{ status: 404 }, "http_error", false],
      [{ status: 400 }, "invalid_request", false],
      [{ status: 422 }, "invalid_request", false],
      [{ status: 401 }, "bad_key", false],
      [{ status: 402 }, "quota_exhausted", false],
      [{ status: 429 }, "rate_limited", false],
      [{ fault: "huge", hugeBytes: 6 * 1024 * 1024 }, "too_large", false],
    ];
    for (const [scenario, reason, providerFault] of cases) {
      fake.setScenario("brave", scenario);
      expect({ scenario, ...(await attemptOf(fakeEntry(fake, "brave"))) }).toEqual({
        scenario,
        reason,
        providerFault,
      });
    }
    const brave = fakeEntry(fake, "brave");
    const buggy: SearchProvider = {
      ...brave.provider,
      search: async () => {
        throw new TypeError("Cannot read properties of undefined (reading 'map')");
      },
    };
    expect(await attemptOf({ ...brave, provider: buggy })).toEqual({
      reason: "invalid_response",
      providerFault: false,
    });
  });
});

describe("runSearch — budget and single modes", () => {
  const three = (site: string) => [page(site, 1), page(site, 2), page(site, 3)];

  it("budget: walks the ladder cheapest first and stops once max_results distinct URLs are in", async () => {
    fake.setScenario("searxng", { results: [page("free.org", 1), page("free.org", 2)] });
    fake.setScenario("serper", { results: three("serper.dev") });

    const result = await runSearch({
      input: { query: "q", mode: "budget", max_results: 4 },
      // Caller order deliberately expensive first.
      providers: [
        fakeEntry(fake, "kagi"),
        fakeEntry(fake, "brave"),
        fakeEntry(fake, "serper"),
        fakeEntry(fake, "searxng"),
      ],
    });

    expect([called("searxng"), called("serper"), called("brave"), called("kagi")]).toEqual([1, 1, 0, 0]);
    expect(result.spans.map((s) => s.provider)).toEqual(["searxng", "serper"]);
    expect(result.results).toHaveLength(4);
    expect(result.partial).toBe(false);
  });

  it("budget: a refused or failing rung is skipped and the next one is tried", async () => {
    fake.setScenario("serper", { status: 503 });
    fake.setScenario("brave", { results: three("brave.com") });

    const result = await runSearch({
      input: { query: "q", mode: "budget", max_results: 3 },
      providers: [
        fakeEntry(fake, "kagi"),
        fakeEntry(fake, "brave"),
        fakeEntry(fake, "serper"),
        fakeEntry(fake, "searxng"),
      ],
      admit: async (id) => (id === "searxng" ? { ok: false, reason: "budget_exhausted" } : { ok: true }),
    });

    expect(result.spans.map((s) => [s.provider, s.outcome])).toEqual([
      ["searxng", "skipped_budget"],
      ["serper", "error"],
      ["brave", "ok"],
    ]);
    expect(called("kagi")).toBe(0);
    expect(result.results).toHaveLength(3);
  });

  it("single: falls through failing and empty providers to the first one that answers", async () => {
    fake.setScenario("tavily", { status: 500 });
    fake.setScenario("brave", { results: [] });
    fake.setScenario("exa", { results: three("exa.ai") });

    const result = await runSearch({
      input: { query: "q", mode: "single" },
      providers: [
        fakeEntry(fake, "tavily"),
        fakeEntry(fake, "brave"),
        fakeEntry(fake, "exa"),
        fakeEntry(fake, "serper"),
      ],
    });

    expect(result.spans.map((s) => [s.provider, s.outcome])).toEqual([
      ["tavily", "error"],
      ["brave", "empty"],
      ["exa", "ok"],
    ]);
    expect(called("serper")).toBe(0);
    expect(result.results.every((r) => r.sources.every((s) => s.provider === "exa"))).toBe(true);
  });
});

describe("runSearch — operators and post-filters", () => {
  it("maps operators to each adapter and post-filters only where a provider could not apply them", async () => {
    const results = [
      page("docs.rs", 1),
      page("blog.docs.rs", 2),
      page("reddit.com", 3),
      page("other.org", 4),
    ];
    fake.setScenario("brave", { results });
    fake.setScenario("tavily", { results });
    fake.setScenario("jina", { results });

    const result = await runSearch({
      input: { query: "tokio site:docs.rs", exclude_domains: ["reddit.com"] },
      providers: [fakeEntry(fake, "brave"), fakeEntry(fake, "tavily"), fakeEntry(fake, "jina")],
    });

    // Brave takes the domains as query operators, Tavily as parameters: both are trusted.
    expect(fake.requests("brave")[0]?.query.q).toBe("tokio site:docs.rs -site:reddit.com");
    expect(fake.requests("tavily")[0]?.body).toMatchObject({
      query: "tokio",
      include_domains: ["docs.rs"],
      exclude_domains: ["reddit.com"],
    });
    // Jina applies neither, so only its in-domain results count.
    const jinaUrls = result.results
      .filter((r) => r.sources.some((s) => s.provider === "jina"))
      .map((r) => r.url);
    expect(jinaUrls).toEqual(["https://docs.rs/page-1", "https://blog.docs.rs/page-2"]);
    const reddit = result.results.find((r) => r.url.includes("reddit"));
    expect(reddit?.sources.map((s) => s.provider)).toEqual(["brave", "tavily"]);
  });
});

describe("runSearch — kept answers", () => {
  it("fuses a kept answer without calling its provider, and tells only fresh answers", async () => {
    fake.setScenario("brave", { results: [page("brave.com", 1)] });
    fake.setScenario("tavily", { results: [page("tavily.com", 1)] });
    const told: string[] = [];
    const result = await runSearch({
      input: { query: "kept answers" },
      providers: [fakeEntry(fake, "brave"), fakeEntry(fake, "tavily")],
      answered: new Map([["brave", { results: [page("kept.org", 1)] }]]),
      onAnswer: (provider, answer) => told.push(`${provider}:${answer.results.length}`),
    });
    expect(called("brave")).toBe(0);
    expect(called("tavily")).toBe(1);
    expect(told).toEqual(["tavily:1"]);
    expect(result.results.map((r) => r.url).sort()).toEqual([
      "https://kept.org/page-1",
      "https://tavily.com/page-1",
    ]);
    expect(result.spans.map((s) => [s.provider, s.outcome])).toEqual([
      ["brave", "cache_hit"],
      ["tavily", "ok"],
    ]);
    expect(result.cached).toBe(false);
  });

  it("is cached when every answer was kept, and single mode takes a kept answer first", async () => {
    fake.setScenario("brave", { results: [page("brave.com", 1)] });
    const result = await runSearch({
      input: { query: "all kept", mode: "single" },
      providers: [fakeEntry(fake, "brave"), fakeEntry(fake, "tavily")],
      answered: new Map([["tavily", { results: [page("kept.org", 1)] }]]),
    });
    expect(called("brave")).toBe(0);
    expect(called("tavily")).toBe(0);
    expect(result.cached).toBe(true);
    expect(result.results.map((r) => r.url)).toEqual(["https://kept.org/page-1"]);
  });
});
