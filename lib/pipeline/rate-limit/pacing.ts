/**
 * Pacing of provider keys whose limit is per second (Brave's free plan: 1 request a second, counted over a
 * sliding second), so the gateway never causes the 429s: across instances sharing the KV store, calls on one
 * key go out at least 1/limit seconds apart (with a 10 % margin for clock skew between instances).
 *
 * Time is cut into send slots of that length, each claimed by the first INCR of its KV counter (atomic in
 * every adapter). A call goes out either
 * - at once, in the current slot, when it claims that slot and the next one (so that a call waiting for
 *   the next slot cannot follow it too closely), or
 * - at the start of a later slot it claimed, waiting for it: at most PACE_MAX_WAIT_MS (one slot of Brave's
 *   free plan) in a fan-out, which goes on with its other providers rather than queue behind a
 *   one-request-a-second key; up to what its deadline leaves when every provider of the call is paced
 *   (the ledger's `maxWaitMs`: a Brave-only call has nothing else to ask, so it waits its turn).
 * Either way two calls on the key are at least one slot apart. A call that finds no slot within its wait is
 * skipped (`rate_limited`, nothing sent or charged). A slot a call claims and
 * cannot use stays unused (a conservative miss, never a closer call). A KV outage lets calls through
 * unpaced: pacing saves 429s, it must never stop calls.
 */
import type { Kv } from "@/lib/kv";

/** The longest a call waits for its send slot. */
export const PACE_MAX_WAIT_MS = 1_200;
/** Slots this much longer than 1/limit seconds: instances' clocks may differ a little. */
const MARGIN = 1.1;
/** Later slots a call tries at least, one KV round trip each, after the first two. */
const MIN_LATER_TRIES = 3;
/** And at most: a burst longer than this many slots on one key waits no further than its end. */
const MAX_LATER_TRIES = 60;

const slotKey = (keyId: string, slotMs: number, slot: number) => `smx:pace:${keyId}:${slotMs}:${slot}`;

/**
 * Claims a send slot for one call on key `keyId` limited to `perSecond` calls a second, at `nowMs`: the
 * milliseconds to wait before sending (0: at once), or null when no slot is free within `maxWaitMs`.
 */
export async function claimSendSlot(
  kv: Kv,
  keyId: string,
  perSecond: number,
  nowMs: number,
  maxWaitMs: number = PACE_MAX_WAIT_MS,
): Promise<number | null> {
  const slotMs = Math.ceil((1000 / perSecond) * MARGIN);
  const current = Math.floor(nowMs / slotMs);
  const ttlSeconds = Math.ceil((maxWaitMs + 3 * slotMs) / 1000) + 1;
  const claim = (pipeline: ReturnType<Kv["pipeline"]>, slot: number) =>
    pipeline.incr(slotKey(keyId, slotMs, slot)).expire(slotKey(keyId, slotMs, slot), ttlSeconds);
  try {
    const first = await claim(claim(kv.pipeline(), current), current + 1).exec();
    const [now, next] = [first[0], first[2]];
    if (now === 1 && next === 1) return 0;
    const waitFor = (slot: number) => slot * slotMs - nowMs;
    if (next === 1) return waitFor(current + 1) <= maxWaitMs ? waitFor(current + 1) : null;
    // A longer wait may reach further: one try per slot it covers (each earlier one was taken).
    const tries = Math.min(Math.max(MIN_LATER_TRIES, Math.ceil(maxWaitMs / slotMs)), MAX_LATER_TRIES);
    for (let slot = current + 2; slot <= current + 1 + tries; slot++) {
      if (waitFor(slot) > maxWaitMs) return null;
      const [claimed] = await claim(kv.pipeline(), slot).exec();
      if (claimed === 1) return waitFor(slot);
    }
    return null;
  } catch {
    return 0;
  }
}
