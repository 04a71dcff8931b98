import { ProviderError } from "@/lib/engine/shared/errors";
import type { FetchFailure, FetchSpan } from "./types";

/**
 * No step produced a usable page; every attempt and its reason travel with the error, and `originVerdict`
 * when the site itself said the page does not exist (origin-verdict.ts), which ended the waterfall.
 */
export class FetchFailed extends Error {
  constructor(
    readonly providersAttempted: readonly string[],
    readonly providersFailed: readonly FetchFailure[],
    readonly spans: readonly FetchSpan[],
    readonly originVerdict?: FetchFailure,
  ) {
    super(
      providersAttempted.length === 0
        ? "no fetch provider is available for this request"
        : `every fetch step failed (${providersFailed.map((f) => `${f.provider}: ${f.reason}`).join("; ")})`,
    );
    this.name = "FetchFailed";
  }
}

/**
 * Thrown for bodies that are not text, HTML, PDF or a Word / PowerPoint document; the engine reports
 * "unsupported_content_type". `detail` says why when the type alone does not (an encrypted document).
 */
export class UnsupportedContent extends ProviderError {
  constructor(
    readonly contentType: string,
    detail?: string,
  ) {
    super(
      "invalid_response",
      `unsupported content type: ${contentType || "unknown binary"}${detail ? ` (${detail})` : ""}`,
    );
    this.name = "UnsupportedContent";
  }
}
