/**
 * A cache that survives a failing provider (scorecard $1): each provider's answer is kept on its own, so
 * while one provider fails, repeats of a search ask only that one again. With two paid providers and a
 * failing keyless one, 20 repeats on two instances sharing Redis call each paid provider once and are
 * cache hits but for the first; no_cache asks everyone; another tenant shares nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Kv } from "@/lib/kv/types";
import type { Platform } from "@/lib/pipeline/context";
import { webSearch } from "@/lib/services/search/web-search";
import { primaryTarget } from "@/tests/support/database";
import { tenantCtx, testPlatform } from "@/tests/support/platform";
import { fakeBaseUrls, serviceSuite } from "@/tests/support/service-suite";
import { testRedisKv } from "@/tests/support/test-redis";

const PROVIDERS = ["brave", "tavily", "duckduckgo"];
const REPEATS = 20;

describe.each(primaryTarget())("provider answers kept apart on $name", (target) => {
  const kv: Kv = testRedisKv();
  const env = (fake: { baseUrlFor(id: string): string }) => ({
    ...fakeBaseUrls(fake as never, PROVIDERS),
    BRAVE_API_KEY: "operator-brave",
    TAVILY_API_KEY: "operator-tavily",
  });
  const s = serviceSuite(target, { env, platform: { kv } });
  /** A second instance: its own process state, the same database and Redis. */
  let other: Platform;

  beforeAll(() => {
    other = testPlatform(s.database.db, { kv, env: env(s.fake) });
  });
  afterAll(() => kv.close());

  const results = () => {
    s.fake.setScenario("brave", {
      results: [{ title: "Otters", url: "https://otters.example/a", snippet: "a" }],
    });
    s.fake.setScenario("tavily", {
      results: [{ title: "Otters B", url: "https://otters.example/b", snippet: "b" }],
    });
    s.fake.setScenario("duckduckgo", { status: 500 });
  };

  it("calls each paid provider once across 20 repeats on two instances while a free one fails", async () => {
    results();
    const input = { query: "otters holding hands", providers: PROVIDERS };
    const calls = [];
    for (let i = 0; i < REPEATS; i++) {
      const ctx = tenantCtx(i % 2 === 0 ? s.platform : other, s.a.tenantId);
      calls.push(await webSearch({ ctx, input }));
    }
    expect(s.fake.requests("brave")).toHaveLength(1);
    expect(s.fake.requests("tavily")).toHaveLength(1);
    const [first, ...repeats] = calls;
    expect(first?.cache_hit).toBe(false);
    expect(first?.partial).toBe(true);
    const hits = repeats.filter((call) => call.cache_hit).length;
    expect(hits / repeats.length).toBeGreaterThanOrEqual(0.95);
    for (const repeat of repeats) {
      expect(repeat.results.map((r) => r.url)).toEqual(first?.results.map((r) => r.url));
      expect(repeat.providers_failed.map((f) => f.provider)).toEqual(["duckduckgo"]);
      expect(
        repeat.spans
          .filter((span) => span.outcome === "cache_hit")
          .map((span) => span.provider)
          .sort(),
      ).toEqual(["brave", "tavily"]);
    }
  });

  it("asks again only the provider that failed, and keeps its answer once it recovers", async () => {
    results();
    const input = { query: "otters recovering", providers: PROVIDERS };
    // An instance whose breaker has not seen the earlier test's failures.
    const ctx = tenantCtx(testPlatform(s.database.db, { kv, env: env(s.fake) }), s.a.tenantId);
    await webSearch({ ctx, input });
    s.fake.setScenario("duckduckgo", {
      results: [{ title: "Otters C", url: "https://otters.example/c", snippet: "c" }],
    });
    const recovered = await webSearch({ ctx, input });
    expect(recovered.partial).toBe(false);
    expect(recovered.cache_hit).toBe(false);
    expect(recovered.results.map((r) => r.url).sort()).toEqual([
      "https://otters.example/a",
      "https://otters.example/b",
      "https://otters.example/c",
    ]);
    const whole = await webSearch({ ctx, input });
    expect(whole.cache_hit).toBe(true);
    expect(s.fake.requests("brave")).toHaveLength(1);
    expect(s.fake.requests("duckduckgo")).toHaveLength(2);
  });

  it("asks everyone with no_cache, and shares no answer with another tenant", async () => {
    results();
    const input = { query: "otters apart", providers: PROVIDERS };
    await webSearch({ ctx: s.a, input });
    await webSearch({ ctx: s.a, input: { ...input, no_cache: true } });
    expect(s.fake.requests("brave")).toHaveLength(2);
    const b = await webSearch({ ctx: s.b, input });
    expect(b.cache_hit).toBe(false);
    expect(s.fake.requests("brave")).toHaveLength(3);
  });
});
