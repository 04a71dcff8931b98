/**
 * robots.txt and sitemaps: fetched as text through the same SSRF-guarded client and the same isolated
 * attempt as the pages (own timeout inside the crawl's deadline, a span each), never through a paid step.
 */
import { decodeText } from "@/lib/engine/fetch/extract/charset";
import type { FetchFailure, FetchProviderEntry, FetchSpan, NetworkPolicy } from "@/lib/engine/fetch/types";
import { callIsolated } from "@/lib/engine/shared/isolated-call";
import type { TransportFacts } from "@/lib/engine/shared/types";
import { safeFetch } from "@/lib/http/safe-fetch";

interface TextResponse extends TransportFacts {
  status: number;
  text: string;
}

export interface TextFetchContext {
  fetcher: FetchProviderEntry;
  network: NetworkPolicy;
  deadline: AbortSignal;
  origin: number;
  /** Every attempt's span, as it ends. */
  onSpan(span: FetchSpan): void;
}

export type TextOutcome = { ok: true; status: number; text: string } | { ok: false; failure: FetchFailure };

export async function fetchText(url: URL, maxBytes: number, context: TextFetchContext): Promise<TextOutcome> {
  const outcome = await callIsolated(
    {
      entry: context.fetcher,
      invoke: async (signal): Promise<TextResponse> => {
        const response = await safeFetch(url.toString(), {
          policy: context.network.ssrf,
          resolver: context.network.resolver,
          maxBytes,
          beforeRequest: context.network.beforeRequest,
          signal,
        });
        return {
          status: response.status,
          text: decodeText(response.body, response.contentType).text,
          httpStatus: response.status,
          bytes: response.body.length,
        };
      },
      isResponse: (value): value is TextResponse =>
        typeof value === "object" && value !== null && "text" in value,
      count: () => 1,
    },
    { kind: "fetch", deadline: context.deadline, origin: context.origin },
  );
  context.onSpan(outcome.span);
  return outcome.ok
    ? { ok: true, status: outcome.response.status, text: outcome.response.text }
    : { ok: false, failure: outcome.failure };
}
