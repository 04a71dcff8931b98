/**
 * Provider keys paused after the provider said their rate limit is used up: a 429 (for its Retry-After, or
 * the reset its rate-limit headers give, else DEFAULT_PAUSE_SECONDS) or an answer whose headers say a window
 * longer than a second has nothing left (lib/http/rate-limit-headers.ts). Until the pause ends, every call
 * on every instance sharing the KV store skips that key (`rate_limited`, nothing sent or charged) instead of
 * earning more 429s. A key the provider refused for its quota, credit or payment limit (`quota_exhausted`)
 * is paused apart, until the reset the answer names, else DEFAULT_QUOTA_PAUSE_SECONDS, and skipped as
 * `quota_exhausted`. Also kept per key: the per-second limit the provider's headers named, which pacing
 * uses (pacing.ts).
 *
 * Keys in KV carry a hash of the provider key (like the breakers), never the key; keyless providers share
 * one (the server's address is what they limit). A KV outage reads as "not paused": a pause saves calls,
 * it must never stop them.
 */
import type { Kv } from "@/lib/kv";
import { breakerKey } from "@/lib/pipeline/health/circuit-breaker";

/** Without a Retry-After or a reset header, a 429 pauses the key this long. */
const DEFAULT_PAUSE_SECONDS = 30;
/**
 * No pause lasts longer, whatever the provider says (Brave's monthly window may reset in weeks): the key is
 * tried again once an hour, and a quota that is still used up pauses it again.
 */
const MAX_PAUSE_SECONDS = 3600;
/**
 * Without a reset in the answer, a quota refusal pauses the key this long. Such a quota is spent for the rest
 * of its period (a day, a month): an hour of skipping saves that period's refusals, and a top-up or a plan
 * upgrade (which the provider does not announce) is noticed within the hour.
 */
const DEFAULT_QUOTA_PAUSE_SECONDS = 3600;
/** A quota's reset may be weeks away (a monthly plan): the key is tried again at least once a day. */
const MAX_QUOTA_PAUSE_SECONDS = 86_400;
/** A learned per-second limit is kept this long after it was last seen to change (plans change rarely). */
const RATE_TTL_SECONDS = 30 * 86_400;

/** What a call needs to know about a key before it is used. */
export interface KeyState {
  /** Epoch ms when the key's pause ends; absent when it is not paused. */
  pausedUntil?: number;
  /** Epoch ms when the key's quota pause ends; absent when the provider has not refused it for quota. */
  quotaUntil?: number;
  /** The per-second limit its provider named in its headers, if it did. */
  perSecond?: number;
}

/** The key's id in KV: `<provider>:<hash of the key>` (`keyless` without one). */
export const keyId = (provider: string, apiKey: string | undefined) => breakerKey(provider, apiKey);

const pauseAt = (id: string) => `smx:pause:${id}`;
const rateAt = (id: string) => `smx:pace-rate:${id}`;
const quotaAt = (id: string) => `smx:quota:${id}`;

/** Every key's state in one KV round trip, by key id. */
export async function readKeyStates(kv: Kv, ids: readonly string[]): Promise<Map<string, KeyState>> {
  const states = new Map<string, KeyState>();
  if (ids.length === 0) return states;
  const pipeline = kv.pipeline();
  for (const id of ids) pipeline.get(pauseAt(id)).get(rateAt(id)).get(quotaAt(id));
  const replies = await pipeline.exec().catch(() => [] as unknown[]);
  ids.forEach((id, i) => {
    const paused = Number(replies[3 * i] ?? Number.NaN);
    const rate = Number(replies[3 * i + 1] ?? Number.NaN);
    const quota = Number(replies[3 * i + 2] ?? Number.NaN);
    const state: KeyState = {};
    if (Number.isFinite(paused)) state.pausedUntil = paused;
    if (Number.isFinite(quota)) state.quotaUntil = quota;
    if (Number.isInteger(rate) && rate > 0) state.perSecond = rate;
    states.set(id, state);
  });
  return states;
}

/** The seconds a 429 pauses a key for: what the provider said, else the default, within bounds. */
export const pauseSecondsAfter429 = (retryAfter: number | undefined) =>
  Math.min(Math.max(retryAfter ?? DEFAULT_PAUSE_SECONDS, 1), MAX_PAUSE_SECONDS);

/** Pauses the key for `seconds` (at least 1, at most an hour) from `nowMs`; never throws. */
export async function pauseKey(kv: Kv, id: string, seconds: number, nowMs: number): Promise<void> {
  const ttlSeconds = Math.min(Math.max(Math.ceil(seconds), 1), MAX_PAUSE_SECONDS);
  await kv
    .set(pauseAt(id), String(nowMs + ttlSeconds * 1000), { ttlSeconds })
    .then(() => undefined)
    .catch(() => undefined);
}

/** The seconds a quota refusal pauses a key for: the reset the provider named, else the default, within bounds. */
export const quotaPauseSeconds = (retryAfter: number | undefined) =>
  Math.min(Math.max(retryAfter ?? DEFAULT_QUOTA_PAUSE_SECONDS, 1), MAX_QUOTA_PAUSE_SECONDS);

/** Pauses the key for its quota, `seconds` (quotaPauseSeconds) from `nowMs`; never throws. */
export async function pauseKeyForQuota(kv: Kv, id: string, seconds: number, nowMs: number): Promise<void> {
  const ttlSeconds = Math.ceil(seconds);
  await kv
    .set(quotaAt(id), String(nowMs + ttlSeconds * 1000), { ttlSeconds })
    .then(() => undefined)
    .catch(() => undefined);
}

/** Keeps the per-second limit the provider named for the key; never throws. */
export async function rememberRate(kv: Kv, id: string, perSecond: number): Promise<void> {
  await kv
    .set(rateAt(id), String(perSecond), { ttlSeconds: RATE_TTL_SECONDS })
    .then(() => undefined)
    .catch(() => undefined);
}
