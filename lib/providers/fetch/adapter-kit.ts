/** Small pieces every fetch adapter needs, kept in one place so adapters stay declarative. */
import { documentFromHtmlPage } from "@/lib/engine/fetch/extract/html-page";
import { htmlToMarkdown } from "@/lib/engine/fetch/extract/markdown";
import type { FetchCall, FetchedDocument, FetchProvider, PageMetadata } from "@/lib/engine/fetch/types";
import { ProviderError } from "@/lib/engine/shared/errors";
import { InvalidPath } from "@/lib/http/provider-client";

/** Keyed adapters call this first; the engine normally skips unconfigured providers before calling. */
export function requireApiKey(call: Pick<FetchCall, "apiKey">, displayName: string): string {
  if (!call.apiKey) throw new ProviderError("not_configured", `${displayName} needs an API key`);
  return call.apiKey;
}

/**
 * A domain route's `handles` and `refuses` from its URL parser: `parse` returns the route's target for
 * a URL it takes, undefined for one it does not, and throws InvalidPath (lib/http/provider-client) for a
 * URL on its site whose path must never reach the provider. `probeUrl` is a small, stable page it takes:
 * what a check of the provider fetches (a page elsewhere would never reach it).
 */
export function domainRoute(
  displayName: string,
  parse: (url: URL) => unknown,
  probeUrl: string,
): Required<Pick<FetchProvider, "handles" | "refuses" | "probeUrl">> {
  const attempt = (url: URL): { target: unknown } | { refusal: string } => {
    try {
      return { target: parse(url) };
    } catch (error) {
      if (error instanceof InvalidPath) return { refusal: `${displayName} URL refused: ${error.message}` };
      throw error;
    }
  };
  return {
    probeUrl,
    handles: (url) => {
      const outcome = attempt(url);
      return "target" in outcome && outcome.target !== undefined;
    },
    refuses: (url) => {
      const outcome = attempt(url);
      return "refusal" in outcome ? outcome.refusal : undefined;
    },
  };
}

export interface Transport {
  status: number;
  bytes: number;
}

/**
 * A provider that answers with the page's HTML: our own extraction makes the Markdown (a large page in a
 * worker thread, abandoned when `signal` aborts).
 */
export async function htmlDocument(
  html: string,
  pageUrl: string,
  http: Transport,
  signal?: AbortSignal,
): Promise<FetchedDocument> {
  return {
    ...(await documentFromHtmlPage(html, pageUrl, signal)),
    finalUrl: pageUrl,
    httpStatus: http.status,
    bytes: http.bytes,
  };
}

export interface MarkdownParts {
  markdown?: string | null;
  /** Used when there is no Markdown (Diffbot's article HTML). */
  html?: string | null;
  title?: string | null;
  finalUrl?: string | null;
  metadata?: PageMetadata;
}

/** A provider that answers with Markdown (or article HTML) plus facts; empty content is invalid_response. */
export function markdownDocument(
  parts: MarkdownParts,
  pageUrl: string,
  http: Transport,
  name: string,
): FetchedDocument {
  const base = parts.finalUrl || pageUrl;
  const markdown = parts.markdown?.trim() || (parts.html ? htmlToMarkdown(parts.html, base) : "");
  if (markdown === "")
    throw new ProviderError("invalid_response", `${name} returned no content`, http.status);
  const document: FetchedDocument = {
    markdown,
    metadata: { ...parts.metadata },
    finalUrl: base,
    httpStatus: http.status,
    bytes: http.bytes,
  };
  if (parts.html) document.html = parts.html;
  // Markdown-only providers (Tavily, Spider, Scrapfly) send no title; their first heading is one.
  const title = parts.title?.trim() || /^#\s+(.+)$/m.exec(markdown)?.[1]?.trim();
  if (title) {
    document.title = title;
    document.metadata.title = title;
  }
  return document;
}

/** Statuses a site answers when it refuses the client rather than lacking the page. */
const REFUSING_STATUSES: ReadonlySet<number> = new Set([401, 403, 451]);

/**
 * The failure of a target's error status: the site refused the fetcher (blocked_target: no other fetcher
 * of the same kind is likely to fare better on a retry soon), or answered an error (http_error).
 */
export function targetStatusError(status: number, message: string): ProviderError {
  return new ProviderError(REFUSING_STATUSES.has(status) ? "blocked_target" : "http_error", message, status);
}

/** A target status the provider reports (Firecrawl's metadata.statusCode, Zyte's statusCode, …). */
export function assertTargetOk(status: number | null | undefined, name: string): void {
  if (status !== undefined && status !== null && status >= 400) {
    throw targetStatusError(status, `${name}: the page answered HTTP ${status}`);
  }
}

/** Sets a metadata field only when the provider gave a non-empty value. */
export function withFacts(facts: Record<string, string | number | null | undefined>): PageMetadata {
  const metadata: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(facts)) {
    if (value !== null && value !== undefined && value !== "") metadata[name] = value;
  }
  return metadata as PageMetadata;
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts; no timer or listener left behind. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
