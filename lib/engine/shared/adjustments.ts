/**
 * What adapters changed in their requests to fit their providers (a region the provider does not know, a
 * query cut to its length limit), gathered per provider for the response: a caller reading results that
 * answer a changed request is told which request they answer.
 */
import type { ProviderId, RequestAdjustment } from "./types";

/** Each answering provider's adjustments, in the providers' order, each note once per provider. */
export function requestAdjustments(
  answers: ReadonlyArray<{ provider: ProviderId; adjustments?: readonly string[] }>,
): RequestAdjustment[] {
  return uniqueAdjustments(
    answers.flatMap(({ provider, adjustments = [] }) => adjustments.map((note) => ({ provider, note }))),
  );
}

/** The list without repeats (several queries of one call adjusted alike), first occurrences kept. */
export function uniqueAdjustments(adjustments: readonly RequestAdjustment[]): RequestAdjustment[] {
  const seen = new Set<string>();
  return adjustments.filter(({ provider, note }) => {
    const key = JSON.stringify([provider, note]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
