/**
 * The contribution learner end to end without the engine: the KV ring (memory KV), the planner and what
 * the verb hands them (planSearch, learnFromSearch). Each "search" of a small world asks the providers the
 * plan names and answers with their lists for that query; full fan-outs are recorded as the verb does.
 * Providers: brave and exa (paid), duckduckgo (free).
 */
import { describe, expect, it } from "vitest";
import type { ProviderEntry } from "@/lib/engine/search/attempt";
import { createMemoryKv } from "@/lib/kv/memory";
import { createRedisKv } from "@/lib/kv/redis";
import type { TenantContext } from "@/lib/pipeline/context";
import { MIN_OBSERVATIONS } from "@/lib/pipeline/contribution/auto-plan";
import { HALF_LIFE_OBSERVATIONS, providerContributions } from "@/lib/pipeline/contribution/contribution";
import { EXPLORE_SHARE, kvLearner, noLearner, WINDOW } from "@/lib/pipeline/contribution/learner";
import type { FanoutObservation } from "@/lib/pipeline/contribution/observation";
import { learnFromSearch, planSearch, type SearchPlan } from "@/lib/pipeline/contribution/search-plan";
import { operatorContext } from "@/lib/pipeline/operator-context";
import { getSearchProvider } from "@/lib/providers/search";

const entry = (id: string): ProviderEntry => {
  const provider = getSearchProvider(id);
  if (!provider) throw new Error(`no provider ${id}`);
  return { provider, baseUrl: `http://unused.invalid/${id}` };
};

/** A context whose learner explores on every `exploreEvery`-th draw, and whose tracked writes can be awaited. */
function learnerCtx(exploreEvery: number, tenantId = "workspace-a") {
  let draws = 0;
  const tracked: Array<Promise<unknown>> = [];
  const kv = createMemoryKv();
  const ctx: TenantContext = {
    ...operatorContext({}, "cli"),
    tenantId,
    kv,
    learner: kvLearner({ random: () => (++draws % exploreEvery === 0 ? 0 : 0.99) }),
    pending: { track: (work) => void tracked.push(work), settled: async () => {} },
  };
  return { ctx, settled: () => Promise.all(tracked.splice(0)) };
}

type Quality = "good" | "junk";

/**
 * Query q's lists: its relevant pages are `q:0` … `q:12` (lower is better). A good provider lists the best
 * ten in order; a junk one ten pages nobody else lists; duckduckgo (free) pages 3–12 shuffled, so a paid
 * provider is needed for the top.
 */
function lists(q: number, quality: Record<string, Quality>): Record<string, string[]> {
  const good = Array.from({ length: 10 }, (_, i) => `q${q}:${i}`);
  const result: Record<string, string[]> = {
    duckduckgo: [12, 3, 10, 5, 8, 4, 11, 6, 9, 7].map((i) => `q${q}:${i}`),
  };
  for (const [id, kind] of Object.entries(quality)) {
    result[id] = kind === "good" ? good : Array.from({ length: 10 }, (_, i) => `q${q}:${id}-junk-${i}`);
  }
  return result;
}

/** One auto search of the world: plan, "call" the plan's providers, record it as the verb would. */
async function search(
  world: ReturnType<typeof learnerCtx>,
  q: number,
  entries: readonly ProviderEntry[],
  quality: Record<string, Quality>,
  mode: "auto" | "fanout" = "auto",
): Promise<SearchPlan<ProviderEntry>> {
  const plan = await planSearch(world.ctx, { mode, entries, answered: new Set() });
  const answers = lists(q, quality);
  learnFromSearch(world.ctx, plan, {
    subset: false,
    keptAnswers: 0,
    failures: [],
    rankings: plan.call.map((e) => ({ provider: e.provider.id, keys: answers[e.provider.id] ?? [] })),
  });
  await world.settled();
  return plan;
}

const paidAsked = (plan: SearchPlan<ProviderEntry>) =>
  plan.call.map((e) => e.provider.id).filter((id) => id !== "duckduckgo");

describe("contribution figures", () => {
  const observation = (seq: number, lists: Record<string, number[]>, asked = Object.keys(lists)) => ({
    seq,
    asked,
    refused: [],
    lists,
  });

  it("counts per search the fused top results each provider found, and those only it found", () => {
    const figures = providerContributions([
      // brave and exa agree on pages 0–4; exa alone has 10–14: ten fused results, five of them exa's alone.
      observation(1, { brave: [0, 1, 2, 3, 4], exa: [0, 1, 2, 3, 4, 10, 11, 12, 13, 14] }),
    ]);
    expect(figures).toEqual([
      { provider: "brave", observed: 1, asked: 1, topResults: 5, onlySource: 0 },
      { provider: "exa", observed: 1, asked: 1, topResults: 10, onlySource: 5 },
    ]);
  });

  it("weighs newer searches more: half as much every half-life", () => {
    const old = observation(1, { brave: [0, 1, 2, 3] });
    const recent = observation(1 + HALF_LIFE_OBSERVATIONS, { brave: [0, 1] });
    const [brave] = providerContributions([old, recent]);
    // (4 × ½ + 2 × 1) / (½ + 1)
    expect(brave?.topResults).toBeCloseTo(8 / 3, 10);
  });

  it("counts a provider refused at admission as observed, not as asked", () => {
    const figures = providerContributions([
      { seq: 1, asked: ["brave"], refused: ["exa"], lists: { brave: [0] } },
    ]);
    expect(figures.find((f) => f.provider === "exa")).toEqual({
      provider: "exa",
      observed: 1,
      asked: 0,
      topResults: 0,
      onlySource: 0,
    });
  });
});

describe("the auto planner with the KV learner", () => {
  const entries = [entry("duckduckgo"), entry("brave"), entry("exa")];
  const start: Record<string, Quality> = { brave: "good", exa: "junk" };

  it("asks everyone until every paid provider has been measured, then leaves out the one that adds nothing", async () => {
    const world = learnerCtx(1_000);
    const plans: SearchPlan<ProviderEntry>[] = [];
    for (let q = 0; q < MIN_OBSERVATIONS + 5; q++) plans.push(await search(world, q, entries, start));
    expect(plans.slice(0, MIN_OBSERVATIONS).every((p) => p.basis === "measuring")).toBe(true);
    expect(plans.slice(0, MIN_OBSERVATIONS).every((p) => paidAsked(p).length === 2)).toBe(true);
    const after = plans.slice(MIN_OBSERVATIONS);
    expect(after.every((p) => p.basis === "planned")).toBe(true);
    expect(after.map(paidAsked)).toEqual(after.map(() => ["brave"]));
    expect(after[0]?.skipped).toEqual([{ provider: "exa", reason: "low_contribution" }]);
  });

  it("fans a share of searches out fully once measured (exploration), and learns from those", async () => {
    const world = learnerCtx(20); // every 20th draw explores
    const plans: SearchPlan<ProviderEntry>[] = [];
    for (let q = 0; q < MIN_OBSERVATIONS + 100; q++) plans.push(await search(world, q, entries, start));
    const later = plans.slice(MIN_OBSERVATIONS);
    expect(later.filter((p) => p.basis === "explore")).toHaveLength(5);
    expect(later.filter((p) => p.basis === "explore").every((p) => paidAsked(p).length === 2)).toBe(true);
    const observations = await world.ctx.learner.observations(world.ctx);
    expect(observations).toHaveLength(MIN_OBSERVATIONS + 5);
  });

  it("explores EXPLORE_SHARE of the draws", () => {
    let draw = 0;
    const learner = kvLearner({ random: () => draw++ / 1_000 });
    const explored = Array.from({ length: 1_000 }, () => learner.explores()).filter(Boolean).length;
    expect(explored).toBe(Math.round(EXPLORE_SHARE * 1_000));
  });

  it("never leaves out a provider not measured yet: one added later is asked until it is", async () => {
    const world = learnerCtx(1_000);
    for (let q = 0; q < MIN_OBSERVATIONS + 2; q++) await search(world, q, entries, start);
    const withSerper = [...entries, entry("serper")];
    const quality: Record<string, Quality> = { ...start, serper: "junk" };
    const plans: SearchPlan<ProviderEntry>[] = [];
    for (let q = 100; q < 100 + MIN_OBSERVATIONS + 3; q++)
      plans.push(await search(world, q, withSerper, quality));
    expect(plans.slice(0, MIN_OBSERVATIONS).every((p) => p.basis === "measuring")).toBe(true);
    expect(plans.slice(0, MIN_OBSERVATIONS).every((p) => paidAsked(p).includes("serper"))).toBe(true);
    expect(plans.slice(MIN_OBSERVATIONS).map(paidAsked)).toEqual([["brave"], ["brave"], ["brave"]]);
  });

  it("leaves out a provider whose results turn to junk after a while, and brings back one that turns good", async () => {
    const world = learnerCtx(10);
    for (let q = 0; q < MIN_OBSERVATIONS + 40; q++) await search(world, q, entries, start);
    expect(paidAsked(await search(world, 999, entries, start))).toEqual(["brave"]);

    const turned: Record<string, Quality> = { brave: "junk", exa: "good" };
    const plans: SearchPlan<ProviderEntry>[] = [];
    for (let q = 1_000; q < 1_400; q++) plans.push(await search(world, q, entries, turned));
    const planned = plans.filter((p) => p.basis === "planned").map(paidAsked);
    // Not at once: the first planned searches still trust brave's record …
    expect(planned[0]).toEqual(["brave"]);
    // … and in the end exa is asked and brave left out.
    const switched = planned.findIndex((asked) => asked.includes("exa") && !asked.includes("brave"));
    expect(switched).toBeGreaterThan(0);
    expect(planned.slice(switched).every((asked) => asked.join() === "exa")).toBe(true);
    expect(plans.at(-1)?.skipped).toEqual([{ provider: "brave", reason: "low_contribution" }]);
  });

  it("keeps at most WINDOW observations per workspace, and workspaces apart", async () => {
    const a = learnerCtx(1_000, "workspace-a");
    const b = { ...learnerCtx(1_000, "workspace-b") };
    b.ctx = { ...b.ctx, kv: a.ctx.kv }; // one store, two workspaces
    for (let q = 0; q < WINDOW + 10; q++) await search(a, q, entries, start, "fanout");
    await search(b, 0, entries, start, "fanout");
    const seen = await a.ctx.learner.observations(a.ctx);
    expect(seen).toHaveLength(WINDOW);
    expect(seen.map((o) => o.seq)).toEqual(Array.from({ length: WINDOW }, (_, i) => i + 11));
    const ofB = await b.ctx.learner.observations(b.ctx);
    expect(ofB.map((o) => o.seq)).toEqual([1]);
  });

  it("gives concurrent writers distinct slots", async () => {
    const world = learnerCtx(1_000);
    const observation: Omit<FanoutObservation, "seq"> = {
      asked: ["brave"],
      refused: [],
      lists: { brave: [0] },
    };
    for (let i = 0; i < 10; i++) world.ctx.learner.record(world.ctx, observation);
    await world.settled();
    const seqs = (await world.ctx.learner.observations(world.ctx)).map((o) => o.seq);
    expect(seqs).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it("takes an unreachable store for no observations (auto asks everyone) and loses a write quietly", async () => {
    const world = learnerCtx(1_000);
    const unreachable = createRedisKv("redis://127.0.0.1:1");
    try {
      const ctx = { ...world.ctx, kv: unreachable };
      const plan = await planSearch(ctx, { mode: "auto", entries, answered: new Set() });
      expect(plan.basis).toBe("measuring");
      expect(plan.call).toEqual(entries);
      learnFromSearch(ctx, plan, { subset: false, keptAnswers: 0, failures: [], rankings: [] });
      await expect(world.settled()).resolves.toHaveLength(1);
    } finally {
      await unreachable.close();
    }
  });
});

describe("whom other modes ask, and what they teach", () => {
  const entries = [entry("duckduckgo"), entry("brave"), entry("exa")];

  it("asks every provider in fanout, budget and single mode", async () => {
    const { ctx } = learnerCtx(1_000);
    for (const mode of ["fanout", "budget", "single"] as const) {
      const plan = await planSearch(ctx, { mode, entries, answered: new Set() });
      expect(plan.call).toEqual(entries);
      expect(plan.skipped).toEqual([]);
    }
  });

  it("records a full fan-out, but not a provider subset, a search with kept answers, or budget mode", async () => {
    const world = learnerCtx(1_000);
    const rankings = [{ provider: "brave", keys: ["a", "b"] }];
    const plan = await planSearch(world.ctx, { mode: "fanout", entries, answered: new Set() });
    learnFromSearch(world.ctx, plan, { subset: true, keptAnswers: 0, failures: [], rankings });
    learnFromSearch(world.ctx, plan, { subset: false, keptAnswers: 1, failures: [], rankings });
    const budget = await planSearch(world.ctx, { mode: "budget", entries, answered: new Set() });
    learnFromSearch(world.ctx, budget, { subset: false, keptAnswers: 0, failures: [], rankings });
    await world.settled();
    expect(await world.ctx.learner.observations(world.ctx)).toEqual([]);

    learnFromSearch(world.ctx, plan, {
      subset: false,
      keptAnswers: 0,
      failures: [{ provider: "exa", reason: "budget_exhausted" }],
      rankings,
    });
    await world.settled();
    const [recorded] = await world.ctx.learner.observations(world.ctx);
    expect(recorded).toEqual({
      seq: 1,
      asked: ["duckduckgo", "brave"],
      refused: ["exa"],
      lists: { brave: [0, 1] },
    });
  });

  it("the operator's no-op learner keeps nothing, so auto asks everyone", async () => {
    const ctx = operatorContext({}, "cli");
    expect(ctx.learner).toBe(noLearner);
    ctx.learner.record(ctx, { asked: ["brave"], refused: [], lists: { brave: [0] } });
    const plan = await planSearch(ctx, { mode: "auto", entries, answered: new Set() });
    expect(plan.basis).toBe("measuring");
    expect(plan.call).toEqual(entries);
  });
});
