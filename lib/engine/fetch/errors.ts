import type { FetchFailure, FetchSpan } from "./types";

/** No step produced a usable page; every attempt and its reason travel with the error. */
export class FetchFailed extends Error {
  constructor(
    readonly providersAttempted: readonly string[],
    readonly providersFailed: readonly FetchFailure[],
    readonly spans: readonly FetchSpan[],
  ) {
    super(
      providersAttempted.length === 0
        ? "no fetch provider is available for this request"
        : `every fetch step failed (${providersFailed.map((f) => `${f.provider}: ${f.reason}`).join("; ")})`,
    );
    this.name = "FetchFailed";
  }
}
