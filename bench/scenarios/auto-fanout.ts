/**
 * Adaptive fan-out against the full fan-out on a corpus whose quality is known (bench/support/
 * relevance-corpus.ts): every provider of the fake server answers each query with the corpus's list for it.
 * Two workspaces on two instances sharing the database and KV (Redis with REDIS_URL, else one in-memory
 * store), searched alternately from both: one runs every query in `auto` mode once (the warm-up, which the
 * learner measures), then both run every query again, one in `fanout`, the other in `auto`, without the
 * cache. Reports each mode's nDCG@10 over the corpus's judgments and paid provider calls per search.
 */

import { Redis } from "ioredis";
import { type Corpus, corpusProviders, judgedNdcg } from "@/bench/support/relevance-corpus";
import { ownPeakRss } from "@/bench/support/timed-calls";
import type { Database } from "@/lib/db";
import { createMemoryKv } from "@/lib/kv/memory";
import { createRedisKv } from "@/lib/kv/redis";
import { kvLearner } from "@/lib/pipeline/contribution/learner";
import { searchProviders } from "@/lib/providers/search";
import { webSearch } from "@/lib/services/search/web-search";
import { FAKE_PROVIDER_IDS, startFakeProviders } from "@/tests/fakes/provider-server";
import { verbEnv } from "@/tests/reliability/support/server-env";
import { percentiles } from "@/tests/reliability/support/stats";
import { seedTenant } from "@/tests/reliability/support/tenant";
import { tenantCtx, testPlatform } from "@/tests/support/platform";
import type { ScenarioResult } from "./scenario";

const NDCG_AT = 10;

/** A fixed sequence for the learner's exploration draws, so a run repeats (seeded like the corpus). */
function draws(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

interface Pass {
  ndcg: number[];
  paidCalls: number;
  ms: number[];
  /** How many searches asked whom, by why (auto: planned, explore, measuring) and the paid providers asked. */
  plans: Map<string, number>;
}

export async function autoFanout(db: Database, corpus: Corpus): Promise<ScenarioResult> {
  const redisUrl = process.env.REDIS_URL?.trim();
  const kv = redisUrl ? createRedisKv(redisUrl) : createMemoryKv();
  const fake = await startFakeProviders();
  const byQuery = new Map(corpus.queries.map((q) => [q.query, q]));
  for (const id of FAKE_PROVIDER_IDS) {
    fake.setScenario(id, {
      resultsFor: (query) =>
        (byQuery.get(query)?.results[id] ?? []).map((url, i) => ({
          url,
          title: `Page ${i + 1} of ${id} for ${query}`,
          snippet: `What ${id} says about ${query}.`,
        })),
    });
  }
  const providers = corpusProviders(corpus);
  const env = verbEnv(fake, providers);
  const instance = (seed: number) =>
    testPlatform(db, { kv, env, learner: kvLearner({ random: draws(seed) }) });
  const instances = [instance(1), instance(2)] as const;
  const paid = searchProviders.filter((p) => providers.includes(p.id) && p.price.usd_per_request > 0);
  const paidCalls = () => paid.reduce((sum, p) => sum + fake.requests(p.id).length, 0);
  const paidIds = new Set(paid.map((p) => p.id));
  const tenants: string[] = [];
  try {
    const [fanoutTenant, autoTenant] = await Promise.all([
      seedTenant(instances[0], { name: "bench-fanout" }),
      seedTenant(instances[0], { name: "bench-auto" }),
    ]);
    tenants.push(fanoutTenant.tenantId, autoTenant.tenantId);
    // Alternate instances: what one learns, the other reads from the shared KV.
    const ctxOf = (tenantId: string, i: number) => tenantCtx(instances[i % 2 === 0 ? 0 : 1], tenantId);
    const pass = async (tenantId: string, mode: "auto" | "fanout"): Promise<Pass> => {
      const done: Pass = { ndcg: [], paidCalls: 0, ms: [], plans: new Map() };
      for (const [i, q] of corpus.queries.entries()) {
        const before = paidCalls();
        const started = performance.now();
        const result = await webSearch({
          ctx: ctxOf(tenantId, i),
          input: { query: q.query, mode, no_cache: true },
        });
        done.ms.push(performance.now() - started);
        const asked = result.providers_succeeded.map((p) => p.provider).filter((id) => paidIds.has(id));
        const plan = `${result.auto ?? mode}: ${asked.sort().join("+")}`;
        done.plans.set(plan, (done.plans.get(plan) ?? 0) + 1);
        done.paidCalls += paidCalls() - before;
        done.ndcg.push(
          judgedNdcg(
            NDCG_AT,
            result.results.map((r) => r.url),
            q.judgments,
          ),
        );
      }
      return done;
    };
    const { result, peakMb } = await ownPeakRss(async () => {
      const warmUp = await pass(autoTenant.tenantId, "auto");
      await Promise.all(instances.map((p) => p.usage.flush()));
      const fanout = await pass(fanoutTenant.tenantId, "fanout");
      const auto = await pass(autoTenant.tenantId, "auto");
      return { warmUp, fanout, auto };
    });
    const searches = corpus.queries.length;
    const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length;
    const [fanoutNdcg, autoNdcg] = [mean(result.fanout.ndcg), mean(result.auto.ndcg)];
    const [fanoutPaid, autoPaid] = [result.fanout.paidCalls / searches, result.auto.paidCalls / searches];
    return {
      id: "auto-fanout",
      title: `auto vs fanout, ${searches} queries, ${paid.length} paid and ${providers.length - paid.length} free providers`,
      figure: "latency of the auto searches after the warm-up",
      latencyMs: percentiles(result.auto.ms),
      samples: searches,
      errors: 0,
      peakRssMb: peakMb,
      rssOf: "bench",
      ratio: `nDCG@10 auto ${autoNdcg.toFixed(3)} / fanout ${fanoutNdcg.toFixed(3)} = ${((autoNdcg / fanoutNdcg) * 100).toFixed(1)} %; paid calls per search auto ${autoPaid.toFixed(2)} / fanout ${fanoutPaid.toFixed(2)} = ${((autoPaid / fanoutPaid) * 100).toFixed(0)} %`,
      notes: `corpus: ${corpus.name}; warm-up (auto, one pass) ${(result.warmUp.paidCalls / searches).toFixed(2)} paid calls per search, nDCG@10 ${mean(result.warmUp.ndcg).toFixed(3)}; auto searches after it: ${planSummary(result.auto.plans)}`,
      quality: {
        ndcgFanout: fanoutNdcg,
        ndcgAuto: autoNdcg,
        ndcgRatio: autoNdcg / fanoutNdcg,
        paidCallsFanout: fanoutPaid,
        paidCallsAuto: autoPaid,
        paidCallsRatio: autoPaid / fanoutPaid,
      },
    };
  } finally {
    await Promise.all(instances.flatMap((p) => [p.usage.flush(), p.traces.flush()]));
    if (redisUrl) await deleteKeysOf(redisUrl, tenants);
    await Promise.all([fake.close(), kv.close()]);
  }
}

/** "planned: brave+serper ×40, explore: … ×3", most frequent first. */
const planSummary = (plans: ReadonlyMap<string, number>): string =>
  [...plans]
    .sort((a, b) => b[1] - a[1])
    .map(([plan, count]) => `${plan} ×${count}`)
    .join(", ");

/** Leaves nothing of the run in Redis: every key of the scenario's workspaces (cache, kept answers, learner). */
async function deleteKeysOf(redisUrl: string, tenantIds: readonly string[]): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true });
  try {
    for (const tenantId of tenantIds) {
      for await (const keys of redis.scanStream({ match: `smx:*${tenantId}*`, count: 1_000 })) {
        if ((keys as string[]).length > 0) await redis.del(...(keys as string[]));
      }
    }
  } finally {
    redis.disconnect();
  }
}
