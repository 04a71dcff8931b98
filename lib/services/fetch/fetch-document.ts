/**
 * One URL's whole document through the fetch engine (domain routes, the SSRF-safe direct fetcher, the keyed
 * waterfall with each paid step admitted for a tenant), as fetch caches it: the document up to MAX_CHARS_CAP
 * characters, whatever window the caller reads (page-window.ts). Shared by a fetch of one `url` and of many
 * `urls`, which cache each document under the same key.
 */
import { FetchFailed } from "@/lib/engine/fetch/errors";
import { type FetchInput, MAX_CHARS_CAP } from "@/lib/engine/fetch/input";
import { type FetchResult, runFetch } from "@/lib/engine/fetch/run-fetch";
import type { FetchFailure, FetchProviderEntry, FetchSpan } from "@/lib/engine/fetch/types";
import type { AdmitHook, ProviderRegistration, ResolvedProvider } from "@/lib/engine/shared/types";
import { SsrfBlocked } from "@/lib/http/ssrf";
import type { Env } from "@/lib/pipeline/capabilities";
import { ServiceError } from "@/lib/pipeline/errors";
import { fetchAllowlistFromEnv, withProviderSettings } from "@/lib/pipeline/providers/operator-providers";
import { selectProviders } from "@/lib/pipeline/providers/selection";
import { fetchProviders } from "@/lib/providers/fetch";

const FETCH_STEP_IDS: ReadonlySet<string> = new Set(fetchProviders.map((provider) => provider.id));

/** A step the caller names but cannot use (no key) is an input error, not a fetch where every step failed. */
export function assertStepsAvailable(
  wanted: readonly string[] | undefined,
  entries: readonly ResolvedProvider<ProviderRegistration>[],
): void {
  selectProviders(wanted, FETCH_STEP_IDS, entries, "fetch");
}

export type DocumentOptions = Pick<FetchInput, "format" | "providers" | "skip_providers">;

/** What identifies a document in the cache: not the window (offset, max_chars) nor the deadline. */
export const documentCacheInput = (url: string, options: DocumentOptions) => ({ url, ...options });

/** A waterfall where no step produced a page, kept as a value so each billed step is still settled. */
export interface NoPage {
  noPage: true;
  providers_failed: readonly FetchFailure[];
  spans: readonly FetchSpan[];
  /** The site's own 404 or 410, which ended the waterfall (lib/engine/fetch/origin-verdict.ts). */
  originVerdict?: FetchFailure;
}

export interface DocumentRequest {
  url: string;
  options: DocumentOptions;
  timeoutMs: number;
  /** The caller's cancellation, or the deadline of a call of many URLs. */
  signal?: AbortSignal;
}

/** Throws invalid_input for a refused target (SSRF guard); a page, or why there is none. */
export async function fetchDocument(
  ctx: { env: Env },
  request: DocumentRequest,
  entries: readonly FetchProviderEntry[],
  /** A tenant's budgets; the operator's calls have none. */
  admit?: AdmitHook,
): Promise<FetchResult | NoPage> {
  try {
    return await runFetch({
      input: {
        ...request.options,
        url: request.url,
        max_chars: MAX_CHARS_CAP,
        timeout_ms: request.timeoutMs,
      },
      providers: withProviderSettings(entries, ctx.env),
      registry: fetchProviders,
      admit,
      signal: request.signal,
      ssrf: { allowlist: fetchAllowlistFromEnv(ctx.env) },
    });
  } catch (error) {
    if (error instanceof SsrfBlocked) throw new ServiceError("invalid_input", error.message);
    if (error instanceof FetchFailed) {
      const noPage: NoPage = { noPage: true, providers_failed: error.providersFailed, spans: error.spans };
      if (error.originVerdict) noPage.originVerdict = error.originVerdict;
      return noPage;
    }
    throw error;
  }
}

/**
 * The error of a URL whose site said the page does not exist: not_found (HTTP 404 on REST, whatever the
 * site answered), with the site's status in `details`. Undefined when the steps merely failed.
 */
export function pageNotFound({ originVerdict }: Pick<NoPage, "originVerdict">): ServiceError | undefined {
  if (originVerdict === undefined) return undefined;
  return new ServiceError(
    "not_found",
    `${originVerdict.message ?? `the site answered HTTP ${originVerdict.status}`}: the page does not exist, so no other fetch step was tried`,
    { status: originVerdict.status },
  );
}

export const isNoPage = <T extends object>(outcome: T | NoPage): outcome is NoPage => "noPage" in outcome;
