/**
 * What the learner keeps of one full fan-out of a workspace (every provider it could call was asked): who
 * was asked, who was refused at admission, and which providers found each of the fused top results. That is
 * all the auto planner and the contribution figures read; queries, URLs and snippets are never kept.
 */
import type { ProviderFailure } from "@/lib/engine/shared/types";

/** The fused results an observation keeps: the ten that nDCG@10, and most readers, look at. */
export const OBSERVED_TOP = 10;

export interface FanoutObservation {
  /** Order of arrival in the workspace's store: a newer observation has a larger one. */
  seq: number;
  /** Providers called (or answered from their kept answer to the same search), whatever they answered. */
  asked: string[];
  /** Providers the search meant to call that admission refused (breaker open, budget spent). */
  refused: string[];
  /** The fused top results in rank order, each as the providers that found it. */
  top: string[][];
}

/** Failures that mean the provider was never called: admission refused it. */
const REFUSALS: ReadonlySet<string> = new Set([
  "breaker_open",
  "budget_exhausted",
  "operator_quota_exhausted",
]);

export const isRefusal = (reason: string): boolean => REFUSALS.has(reason);

/** One full fan-out over `providers` as an observation (without its `seq`, which the store gives). */
export function observeFanout(
  providers: readonly string[],
  failures: readonly Pick<ProviderFailure, "provider" | "reason">[],
  results: ReadonlyArray<{ sources: ReadonlyArray<{ provider: string }> }>,
): Omit<FanoutObservation, "seq"> {
  const refused = new Set(failures.filter((f) => isRefusal(f.reason)).map((f) => f.provider));
  return {
    asked: providers.filter((id) => !refused.has(id)),
    refused: [...refused],
    top: results.slice(0, OBSERVED_TOP).map((r) => [...new Set(r.sources.map((s) => s.provider))]),
  };
}

const isStringList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === "string");

/** A stored observation read back defensively (it is JSON in a shared store); null when malformed. */
export function parseObservation(raw: string): FanoutObservation | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const { seq, asked, refused, top } = value as Record<string, unknown>;
  if (typeof seq !== "number" || !Number.isInteger(seq)) return null;
  if (!isStringList(asked) || !isStringList(refused)) return null;
  if (!Array.isArray(top) || !top.every(isStringList)) return null;
  return { seq, asked, refused, top };
}
