/**
 * What the learner keeps of one full fan-out of a workspace (every provider it could call was asked): who
 * was asked, who was refused at admission, and each answering provider's ranked list, its pages written as
 * numbers that are equal where two providers listed the same page. That is enough to fuse the search again
 * over any subset of its providers (contribution.ts, auto-plan.ts); queries, URLs and snippets are never kept.
 */
import type { ProviderFailure } from "@/lib/engine/shared/types";
import { isRefusal } from "@/lib/pipeline/providers/skipped";

/** Results kept of each provider's list: the fused top ten can only draw on its first ten. */
const OBSERVED_RANKS = 10;

export interface FanoutObservation {
  /** Order of arrival in the workspace's store: a newer observation has a larger one. */
  seq: number;
  /** Providers called (or answered from their kept answer to the same search), whatever they answered. */
  asked: string[];
  /** Providers the search meant to call that admission refused (breaker open, budget spent). */
  refused: string[];
  /** Each answering provider's pages by rank (the first is rank 1), as page numbers. */
  lists: Record<string, number[]>;
}

/** One full fan-out over `providers` as an observation (without its `seq`, which the store gives). */
export function observeFanout(
  providers: readonly string[],
  failures: readonly Pick<ProviderFailure, "provider" | "reason">[],
  rankings: ReadonlyArray<{ provider: string; keys: readonly string[] }>,
): Omit<FanoutObservation, "seq"> {
  const refused = new Set(failures.filter((f) => isRefusal(f.reason)).map((f) => f.provider));
  const pages = new Map<string, number>();
  const pageOf = (key: string) => {
    let page = pages.get(key);
    if (page === undefined) {
      page = pages.size;
      pages.set(key, page);
    }
    return page;
  };
  return {
    asked: providers.filter((id) => !refused.has(id)),
    refused: [...refused],
    lists: Object.fromEntries(
      rankings.map(({ provider, keys }) => [provider, keys.slice(0, OBSERVED_RANKS).map(pageOf)]),
    ),
  };
}

const isStringList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === "string");

const isPageList = (value: unknown): value is number[] =>
  Array.isArray(value) && value.every((item) => Number.isInteger(item) && item >= 0);

/** A stored observation read back defensively (it is JSON in a shared store); null when malformed. */
export function parseObservation(raw: string): FanoutObservation | null {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof value !== "object" || value === null) return null;
  const { seq, asked, refused, lists } = value as Record<string, unknown>;
  if (typeof seq !== "number" || !Number.isInteger(seq)) return null;
  if (!isStringList(asked) || !isStringList(refused)) return null;
  if (typeof lists !== "object" || lists === null || !Object.values(lists).every(isPageList)) return null;
  return { seq, asked, refused, lists: lists as Record<string, number[]> };
}
