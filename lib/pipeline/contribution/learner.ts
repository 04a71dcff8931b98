/**
 * The contribution learner: a capability of the context (like the trace and usage sinks) that keeps a
 * workspace's recent full fan-outs and tells the auto planner whether a search explores. `kvLearner` keeps
 * them in KV, shared by every instance; `noLearner` keeps nothing (the operator's context), so auto asks
 * every provider there, as fanout does.
 *
 * Storage: a ring of WINDOW observations per workspace. A writer takes the next number from a counter
 * (INCR, so two writers never share a slot) and writes its observation to slot number % WINDOW, both keys
 * expiring after a month without searches: at most WINDOW + 1 keys per workspace. Reads get the whole ring
 * in one round trip, and only on a search that missed the cache; an instance keeps what it read for a few
 * seconds, or until it writes an observation itself, so a burst of uncached searches reads it once.
 */
import type { Kv } from "@/lib/kv";
import { log } from "@/lib/observability/logger";
import type { ContributionLearner } from "@/lib/pipeline/capabilities";
import { type FanoutObservation, parseObservation } from "./observation";

/** Full fan-outs kept per workspace: four half-lives (contribution.ts), past which weights are below 1/16. */
export const WINDOW = 64;
/** The share of auto searches that ask every provider. */
export const EXPLORE_SHARE = 0.05;
const TTL_SECONDS = 30 * 24 * 3600;
/** How long an instance uses the observations it read before reading them again. */
const FRESH_MS = 5_000;
/** Workspaces whose observations an instance holds; all are dropped when there are more. */
const MAX_HELD = 1_000;

const counterKey = (tenantId: string) => `smx:learn:${tenantId}:seq`;
const slotKey = (tenantId: string, seq: number) => `smx:learn:${tenantId}:${seq % WINDOW}`;

export const noLearner: ContributionLearner = {
  observations: async () => [],
  record: () => {},
  explores: () => false,
};

interface Held {
  expires: number;
  observations: Promise<FanoutObservation[]>;
}

export function kvLearner({
  random = Math.random,
  freshMs = FRESH_MS,
}: {
  /** Uniform in [0, 1): below EXPLORE_SHARE explores. */
  random?: () => number;
  freshMs?: number;
} = {}): ContributionLearner {
  const held = new Map<string, Held>();
  return {
    observations(ctx) {
      const now = Date.now();
      const current = held.get(ctx.tenantId);
      if (current && current.expires > now) return current.observations;
      if (held.size >= MAX_HELD) held.clear();
      const observations = readRing(ctx.kv, ctx.tenantId);
      held.set(ctx.tenantId, { expires: now + freshMs, observations });
      return observations;
    },
    record(ctx, observation) {
      // Once written, the next search reads the ring again: this observation and other instances' too.
      const written = writeToRing(ctx.kv, ctx.tenantId, observation).then(() => held.delete(ctx.tenantId));
      ctx.pending.track(written);
    },
    explores: () => random() < EXPLORE_SHARE,
  };
}

/** The ring's observations, oldest first; a KV outage reads as none (auto then asks everyone). */
async function readRing(kv: Kv, tenantId: string): Promise<FanoutObservation[]> {
  const pipeline = kv.pipeline();
  for (let slot = 0; slot < WINDOW; slot++) pipeline.get(slotKey(tenantId, slot));
  const replies = await pipeline.exec().catch((error: unknown) => {
    log().warn(error, "contribution learner: reading observations failed");
    return [];
  });
  const observations = replies.flatMap((reply) => {
    const observation = typeof reply === "string" ? parseObservation(reply) : null;
    return observation ? [observation] : [];
  });
  return windowOf(observations);
}

/** Writes one observation to the next slot (a KV failure is logged: that observation is lost, nothing else). */
async function writeToRing(kv: Kv, tenantId: string, observation: Omit<FanoutObservation, "seq">) {
  try {
    const seq = await kv.incr(counterKey(tenantId));
    await kv
      .pipeline()
      .set(slotKey(tenantId, seq), JSON.stringify({ seq, ...observation }), { ttlSeconds: TTL_SECONDS })
      .expire(counterKey(tenantId), TTL_SECONDS)
      .exec();
  } catch (error) {
    log().warn(error, "contribution learner: recording an observation failed");
  }
}

/** The newest WINDOW observations, oldest first (a slot being overwritten may still hold an older one). */
function windowOf(list: readonly FanoutObservation[]): FanoutObservation[] {
  const newest = Math.max(0, ...list.map((o) => o.seq));
  return list.filter((o) => o.seq > newest - WINDOW).sort((a, b) => a.seq - b.seq);
}
