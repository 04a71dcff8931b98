/**
 * The direct fetcher: the free default step. The target URL itself is fetched through the SSRF-guarded
 * client (lib/http/safe-fetch.ts) and extracted here (HTML → article Markdown, PDF → text, DOCX/PPTX →
 * Markdown, text as is).
 * An HTTP error status fails the step, except a bot challenge or a JavaScript-only page, which the content
 * checks name (a single-page app answering its own routes with 404 renders elsewhere; origin-verdict.ts).
 */
import { checkContent, type Verdict } from "@/lib/engine/fetch/content-checks";
import { documentFromBody } from "@/lib/engine/fetch/extract/document";
import type { FetchProvider } from "@/lib/engine/fetch/types";
import { ProviderError } from "@/lib/engine/shared/errors";
import { safeFetch } from "@/lib/http/safe-fetch";
import { listedPrice } from "@/lib/providers/prices";

/** No provider API: the target is fetched itself. Non-empty so the shared configuration check passes. */
export const DIRECT_BASE_URL = "direct:";

/** Pages that answer an error status yet go to the content checks, which send them on to other steps. */
const CHECKED_DESPITE_STATUS: ReadonlySet<Verdict["reason"] | undefined> = new Set([
  "bot_challenge",
  "js_shell",
]);

export const direct: FetchProvider = {
  id: "direct",
  displayName: "Direct fetch",
  keyEnv: [],
  baseUrlEnv: "",
  defaultBaseUrl: DIRECT_BASE_URL,
  docsUrl: "https://github.com/mozilla/readability",
  apiVersion: "built-in",
  price: listedPrice("direct"),
  defaultTimeoutMs: 15_000,
  fetchesOrigin: true,

  async fetch(call) {
    const response = await safeFetch(call.url.toString(), {
      policy: call.network.ssrf,
      resolver: call.network.resolver,
      maxBytes: call.network.maxBytes,
      beforeRequest: call.network.beforeRequest,
      timeoutMs: direct.defaultTimeoutMs,
      signal: call.signal,
    });
    const document = await documentFromBody({
      body: response.body,
      contentType: response.contentType,
      url: response.finalUrl,
      maxBytes: call.network.maxBytes,
      signal: call.signal,
    });
    document.finalUrl = response.finalUrl;
    document.httpStatus = response.status;
    document.bytes = response.body.length;
    document.metadata.status = response.status;
    if (response.status >= 400 && !CHECKED_DESPITE_STATUS.has(checkContent(document)?.reason)) {
      throw new ProviderError(
        "http_error",
        `${call.url.host} answered HTTP ${response.status}`,
        response.status,
      );
    }
    return document;
  },
};
