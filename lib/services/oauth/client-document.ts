/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document): a client whose id is an
 * HTTPS URL publishes its metadata there. The document is fetched through the SSRF guard (no private
 * addresses unless SEARCHMUX_FETCH_ALLOWLIST names them, no redirects) within CLIENT_DOCUMENT_MAX_BYTES
 * and CLIENT_DOCUMENT_TIMEOUT_MS, must name itself as `client_id`, and is kept as long as its
 * Cache-Control allows (clamped to a minute … a day).
 */
import { safeFetch } from "@/lib/http/safe-fetch";
import { log } from "@/lib/observability/logger";
import type { Env } from "@/lib/pipeline/capabilities";
import { fetchAllowlistFromEnv } from "@/lib/pipeline/providers/operator-providers";
import { type ClientMetadata, parseClientMetadata } from "./client-metadata";
import { OAuthError } from "./oauth-error";
import {
  CLIENT_DOCUMENT_DEFAULT_CACHE_SECONDS,
  CLIENT_DOCUMENT_MAX_BYTES,
  CLIENT_DOCUMENT_MAX_CACHE_SECONDS,
  CLIENT_DOCUMENT_MIN_CACHE_SECONDS,
  CLIENT_DOCUMENT_TIMEOUT_MS,
  MAX_URI_LENGTH,
} from "./policy";

/** Whether `clientId` is a URL-shaped client id: https, a path other than `/`, no fragment or credentials. */
export function isClientDocumentUrl(clientId: string): boolean {
  if (clientId.length > MAX_URI_LENGTH || !URL.canParse(clientId)) return false;
  const url = new URL(clientId);
  return (
    url.protocol === "https:" &&
    url.pathname !== "/" &&
    !clientId.includes("#") &&
    !url.username &&
    !url.password &&
    !url.pathname.split("/").some((segment) => segment === "." || segment === "..")
  );
}

export interface ClientDocument {
  metadata: ClientMetadata;
  /** Seconds the document may be kept before it is fetched again. */
  maxAgeSeconds: number;
}

function maxAge(cacheControl: string | undefined): number {
  const directives = (cacheControl ?? "").toLowerCase();
  if (/\bno-(store|cache)\b/.test(directives)) return CLIENT_DOCUMENT_MIN_CACHE_SECONDS;
  const seconds = Number(/\bmax-age=(\d+)/.exec(directives)?.[1] ?? CLIENT_DOCUMENT_DEFAULT_CACHE_SECONDS);
  return Math.min(Math.max(seconds, CLIENT_DOCUMENT_MIN_CACHE_SECONDS), CLIENT_DOCUMENT_MAX_CACHE_SECONDS);
}

/** All a member learns when a document cannot be read: nothing of what its host answered, or whether it did. */
export const UNREADABLE_CLIENT_DOCUMENT = "the client's metadata document could not be read";

/** The refusal of a document that is not the client's own (the reason goes to the server's log only). */
function unreadable(url: string, reason: string): OAuthError {
  log().info({ client_id: url, reason }, "client metadata document refused");
  return new OAuthError("invalid_client", UNREADABLE_CLIENT_DOCUMENT);
}

/**
 * Fetches and validates the document at `url`; an OAuthError `invalid_client` refuses it. Until the document
 * names `url` as its client_id, whatever was at the URL is no client's, and the refusal is the same for every
 * fault: the fetch is a signed-in member's request for any URL, and its answer must not tell them what is
 * there. Past that, the metadata's faults are the client's to hear (client-metadata.ts).
 */
export async function fetchClientDocument(url: string, env: Env): Promise<ClientDocument> {
  let response: Awaited<ReturnType<typeof safeFetch>>;
  try {
    response = await safeFetch(url, {
      policy: { allowlist: fetchAllowlistFromEnv(env) },
      timeoutMs: CLIENT_DOCUMENT_TIMEOUT_MS,
      maxBytes: CLIENT_DOCUMENT_MAX_BYTES,
      maxRedirects: 0,
    });
  } catch (error) {
    throw unreadable(url, error instanceof Error ? error.message : String(error));
  }
  if (response.status !== 200) throw unreadable(url, `answered HTTP ${response.status}`);
  let document: unknown;
  try {
    document = JSON.parse(response.body.toString("utf8"));
  } catch {
    throw unreadable(url, "not JSON");
  }
  if ((document as { client_id?: unknown } | null)?.client_id !== url) {
    throw unreadable(url, "no JSON object naming that URL as its client_id");
  }
  const metadata = parseClientMetadata(document, "none");
  if (metadata.tokenEndpointAuthMethod !== "none") {
    // A document anyone can read cannot carry a shared secret; private_key_jwt is not supported.
    throw new OAuthError(
      "invalid_client",
      "the client's metadata document must use token_endpoint_auth_method 'none'",
    );
  }
  return { metadata, maxAgeSeconds: maxAge(response.headers["cache-control"]) };
}
