/**
 * Cost with one provider failing ($1 of the scorecard): the same search 20 times on two instances that
 * share the database and KV (Redis with REDIS_URL, else one in-memory store), over the bench's keyed
 * providers (on a plain-HTTP fake server of this process, at the bench's latency) plus one keyless provider
 * that answers 500 throughout. Every call is partial, so none is cached
 * whole; each provider's answer is kept apart (lib/pipeline/cache/provider-answers.ts), so the repeats ask
 * only the failing provider again. Reports paid provider calls per search and the repeats' cache hit ratio,
 * against what each repeat would have bought without kept answers (the first call's paid calls).
 */
import { type BenchTarget, setProviderLatency } from "@/bench/support/bench-target";
import { ownPeakRss } from "@/bench/support/timed-calls";
import { createMemoryKv } from "@/lib/kv/memory";
import { createRedisKv } from "@/lib/kv/redis";
import { searchProviders } from "@/lib/providers/search";
import { webSearch } from "@/lib/services/search/web-search";
import { startFakeProviders } from "@/tests/fakes/provider-server";
import { verbEnv } from "@/tests/reliability/support/server-env";
import { percentiles } from "@/tests/reliability/support/stats";
import { seedTenant } from "@/tests/reliability/support/tenant";
import { tenantCtx, testPlatform } from "@/tests/support/platform";
import type { ScenarioResult } from "./scenario";

const FAILING = "duckduckgo";

export async function failingProvider(target: BenchTarget, repeats: number): Promise<ScenarioResult> {
  const redisUrl = process.env.REDIS_URL?.trim();
  const kv = redisUrl ? createRedisKv(redisUrl) : createMemoryKv();
  const fake = await startFakeProviders();
  setProviderLatency(fake, target.providers);
  const env = verbEnv(fake, target.providers);
  const instances = [testPlatform(target.db, { kv, env }), testPlatform(target.db, { kv, env })] as const;
  const providers = [...target.providers, FAILING];
  const paid = new Set(
    searchProviders.filter((p) => providers.includes(p.id) && p.price.usd_per_request > 0).map((p) => p.id),
  );
  const paidCalls = () => [...paid].reduce((sum, id) => sum + fake.requests(id).length, 0);
  fake.setScenario(FAILING, { status: 500 });
  try {
    const tenant = await seedTenant(instances[0], { name: "bench-failing-provider" });
    const input = { query: `failing provider bench ${Date.now()}`, providers };
    const before = paidCalls();
    const { result: calls, peakMb } = await ownPeakRss(async () => {
      const done: Array<{ ms: number; hit: boolean }> = [];
      for (let i = 0; i < repeats; i++) {
        const platform = instances[i % 2 === 0 ? 0 : 1];
        const started = performance.now();
        const result = await webSearch({ ctx: tenantCtx(platform, tenant.tenantId), input });
        done.push({ ms: performance.now() - started, hit: result.cache_hit });
      }
      return done;
    });
    const firstCallPaid = Math.min(paid.size, paidCalls() - before);
    const total = paidCalls() - before;
    const repeatCalls = calls.slice(1);
    const hits = repeatCalls.filter((call) => call.hit).length;
    const hitRatio = hits / repeatCalls.length;
    return {
      id: "failing-provider",
      title: `one of ${providers.length} providers failing, the same search ×${repeats} on two instances`,
      figure: "latency of the repeats",
      latencyMs: percentiles(repeatCalls.map((call) => call.ms)),
      samples: repeatCalls.length,
      errors: 0,
      peakRssMb: peakMb,
      rssOf: "bench",
      ratio: `${(total / repeats).toFixed(2)} paid calls per search (${total} in all, ${paid.size} paid providers); cache hit ratio of the repeats ${(hitRatio * 100).toFixed(0)} %`,
      notes: `without kept answers every repeat buys every paid provider again: ${firstCallPaid} paid calls per search, ${firstCallPaid * repeats} in all`,
      cost: {
        paidCallsPerCall: total / repeats,
        callsPerPaidProvider: total / paid.size,
        cacheHitRatio: hitRatio,
      },
    };
  } finally {
    await Promise.all([fake.close(), kv.close()]);
  }
}
