/**
 * One page fetch for a research stage through the fetch engine (domain routes, the direct fetcher, the
 * keyed waterfall, content checks), never throwing: the page, or why there is none. Span offsets are
 * moved from the fetch's own start to the tool call's.
 */

import { ZodError } from "zod";
import { FetchFailed } from "@/lib/engine/fetch/errors";
import { MAX_TIMEOUT_MS, MIN_TIMEOUT_MS } from "@/lib/engine/fetch/input";
import { type FetchResult, planSteps, runFetch } from "@/lib/engine/fetch/run-fetch";
import type { FetchFailure, FetchFormat, FetchProviderEntry } from "@/lib/engine/fetch/types";
import { SsrfBlocked } from "@/lib/http/ssrf";
import type { PageAccess, PageProblem, StageSpan } from "./types";

export interface StageFetch {
  url: string;
  format: FetchFormat;
  maxChars: number;
  /** Only this step; the whole waterfall when absent. */
  step?: string;
  /** The page's deadline (the caller's time limit, already linked to its cancellation). */
  signal: AbortSignal;
  timeoutMs: number;
}

export type StageFetchOutcome =
  | { ok: true; page: FetchResult }
  /** `refused`: the network policy refused the URL itself, so no other step may fetch it either. */
  | { ok: false; problem: PageProblem; refused?: true };

export const INVALID_URL: PageProblem = {
  reason: "invalid_url",
  message: "the result's URL cannot be fetched",
  transient: false,
};

/** Failures a later attempt might not meet; a result with one is not cached. */
const TRANSIENT: ReadonlySet<string> = new Set([
  "timeout",
  "rate_limited",
  "quota_exhausted",
  "network_error",
  "budget_exhausted",
  "operator_quota_exhausted",
  "breaker_open",
  "invalid_response",
]);

export function isTransient(failure: { reason: string; status?: number }): boolean {
  return (
    TRANSIENT.has(failure.reason) ||
    (failure.reason === "http_error" && (failure.status === undefined || failure.status >= 500))
  );
}

/**
 * The fetch engine's step order for a URL (run-fetch.ts): routes that handle it, then the waterfall
 * cheapest first. A grounding retry takes the second step, so it needs the order up front.
 */
export function fetchStepOrder(entries: readonly FetchProviderEntry[], url: URL): string[] {
  return planSteps(entries, url, {}).map((entry) => entry.provider.id);
}

export async function fetchForStage(
  request: StageFetch,
  access: PageAccess,
): Promise<{ outcome: StageFetchOutcome; spans: StageSpan[] }> {
  const started = performance.now();
  const shift = (spans: readonly StageSpan[]) =>
    spans.map((span) => ({
      ...span,
      start_offset_ms: span.start_offset_ms + Math.round(started - access.origin),
    }));
  try {
    const page = await runFetch({
      input: {
        url: request.url,
        format: request.format,
        max_chars: request.maxChars,
        providers: request.step === undefined ? undefined : [request.step],
        timeout_ms: Math.min(Math.max(request.timeoutMs, MIN_TIMEOUT_MS), MAX_TIMEOUT_MS),
      },
      providers: access.fetchEntries,
      registry: access.fetchRegistry,
      signal: request.signal,
      ssrf: access.ssrf,
      admit: access.admitFetch,
    });
    return { outcome: { ok: true, page }, spans: shift(page.spans) };
  } catch (error) {
    if (error instanceof FetchFailed) {
      return {
        outcome: { ok: false, problem: fetchProblem(error, request.signal) },
        spans: shift(error.spans),
      };
    }
    if (error instanceof ZodError) return { outcome: { ok: false, problem: INVALID_URL }, spans: [] };
    if (error instanceof SsrfBlocked) {
      return {
        outcome: {
          ok: false,
          problem: { reason: "blocked", message: error.message, transient: false },
          refused: true,
        },
        spans: [],
      };
    }
    throw error;
  }
}

function fetchProblem(error: FetchFailed, signal: AbortSignal): PageProblem {
  const failures: readonly FetchFailure[] = error.providersFailed;
  const last = failures.at(-1);
  if (last === undefined) {
    return signal.aborted
      ? { reason: "timeout", message: "no page before the deadline", transient: true }
      : { reason: "no_fetch_provider", message: error.message, transient: false };
  }
  return { reason: last.reason, message: error.message, transient: failures.some(isTransient) };
}
