/**
 * How providers are called per mode:
 * - fanout: all at once;
 * - budget: one at a time along the cost ladder (ladderOrder) until enough distinct results are in;
 * - single: one at a time in the caller's order until one answers with at least one usable result
 *   (an empty answer falls through like a failure: "single" promises an answer, not an attempt).
 * A ladder stops at the deadline; providers it never reached are neither called nor reported.
 */
import type { ProviderEntry } from "./attempt";

export type Attempt<T> = (entry: ProviderEntry) => Promise<T>;

export function callAll<T>(entries: readonly ProviderEntry[], attempt: Attempt<T>): Promise<T[]> {
  return Promise.all(entries.map(attempt));
}

export async function callInTurn<T>(
  entries: readonly ProviderEntry[],
  attempt: Attempt<T>,
  isEnough: (outcomes: readonly T[]) => boolean,
  deadline: AbortSignal,
): Promise<T[]> {
  const outcomes: T[] = [];
  for (const entry of entries) {
    if (deadline.aborted || isEnough(outcomes)) break;
    outcomes.push(await attempt(entry));
  }
  return outcomes;
}

export { ladderOrder } from "@/lib/engine/shared/ladder";
