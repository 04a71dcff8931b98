/**
 * One waterfall step: the shared isolated call (configuration, admission, own timeout inside the
 * overall deadline, failure classification), then the content checks on what came back. Never throws,
 * except SsrfBlocked: a refused target ends the whole fetch rather than being tried elsewhere.
 */
import { callIsolated } from "@/lib/engine/shared/isolated-call";
import type { AdmitHook } from "@/lib/engine/shared/types";
import { SsrfBlocked } from "@/lib/http/ssrf";
import { checkContent } from "./content-checks";
import { UnsupportedContent } from "./errors";
import type {
  FetchedDocument,
  FetchFailure,
  FetchFormat,
  FetchProviderEntry,
  FetchSpan,
  NetworkPolicy,
} from "./types";

export interface StepContext {
  url: URL;
  format: FetchFormat;
  network: NetworkPolicy;
  /** The overall deadline, already linked to the caller's signal. */
  deadline: AbortSignal;
  admit?: AdmitHook;
  origin: number;
}

export type StepOutcome =
  | { ok: true; entry: FetchProviderEntry; document: FetchedDocument; span: FetchSpan }
  | {
      ok: false;
      entry: FetchProviderEntry;
      failure: FetchFailure;
      span: FetchSpan;
      /** A page that was only too short, kept as the last resort. */
      shortDocument?: FetchedDocument;
    };

export async function attemptStep(entry: FetchProviderEntry, context: StepContext): Promise<StepOutcome> {
  let thrown: unknown;
  const outcome = await callIsolated(
    {
      entry,
      invoke: (signal) =>
        entry.provider
          .fetch({
            url: context.url,
            format: context.format,
            apiKey: entry.apiKey,
            baseUrl: entry.baseUrl,
            settings: entry.settings ?? {},
            network: context.network,
            signal,
          })
          .catch((error: unknown) => {
            thrown = error;
            throw error;
          }),
      isResponse: isFetchedDocument,
      count: () => 1,
    },
    // Admission guards spending: only calls made with a key cost money or quota; keyless steps (the
    // direct fetcher, keyless Jina, Reddit, arXiv) skip it.
    {
      kind: "fetch",
      deadline: context.deadline,
      admit: entry.apiKey === undefined ? undefined : context.admit,
      origin: context.origin,
    },
  );
  if (thrown instanceof SsrfBlocked && !outcome.ok && outcome.failure.reason === "blocked") throw thrown;
  if (!outcome.ok) {
    const failure: FetchFailure = { ...outcome.failure };
    if (thrown instanceof UnsupportedContent && failure.reason === "invalid_response") {
      failure.reason = "unsupported_content_type";
    }
    return { ok: false, entry, failure, span: outcome.span };
  }
  const document = outcome.response;
  const verdict = checkContent(document);
  if (verdict === undefined) return { ok: true, entry, document, span: outcome.span };
  const failure: FetchFailure = {
    provider: entry.provider.id,
    reason: verdict.reason,
    message: verdict.message,
    duration_ms: outcome.success.duration_ms,
  };
  if (document.metadata.status !== undefined) failure.status = document.metadata.status;
  const span: FetchSpan = { ...outcome.span, outcome: "error", error: verdict.message };
  return verdict.reason === "too_short"
    ? { ok: false, entry, failure, span, shortDocument: document }
    : { ok: false, entry, failure, span };
}

function isFetchedDocument(value: unknown): value is FetchedDocument {
  return (
    typeof value === "object" &&
    value !== null &&
    "markdown" in value &&
    typeof value.markdown === "string" &&
    "metadata" in value &&
    typeof value.metadata === "object" &&
    value.metadata !== null
  );
}
