/**
 * The direct fetcher: the free default step. The target URL itself is fetched through the SSRF-guarded
 * client (lib/http/safe-fetch.ts) and extracted here (HTML → article Markdown, PDF → text, DOCX/PPTX →
 * Markdown, text as is).
 * An HTTP error status fails the step, except a bot challenge page, which the content checks name.
 */
import { checkContent } from "@/lib/engine/fetch/content-checks";
import { documentFromBody } from "@/lib/engine/fetch/extract/document";
import type { FetchProvider } from "@/lib/engine/fetch/types";
import { ProviderError } from "@/lib/engine/shared/errors";
import { safeFetch } from "@/lib/http/safe-fetch";

/** No provider API: the target is fetched itself. Non-empty so the shared configuration check passes. */
export const DIRECT_BASE_URL = "direct:";

export const direct: FetchProvider = {
  id: "direct",
  displayName: "Direct fetch",
  keyEnv: [],
  baseUrlEnv: "",
  defaultBaseUrl: DIRECT_BASE_URL,
  docsUrl: "https://github.com/mozilla/readability",
  apiVersion: "built-in",
  costPerRequestUsd: 0,
  freeTier: null,
  defaultTimeoutMs: 15_000,

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
    if (response.status >= 400 && checkContent(document)?.reason !== "bot_challenge") {
      throw new ProviderError(
        "http_error",
        `${call.url.host} answered HTTP ${response.status}`,
        response.status,
      );
    }
    return document;
  },
};
