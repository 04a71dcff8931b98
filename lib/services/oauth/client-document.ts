/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document): a client whose id is an
 * HTTPS URL publishes its metadata there. The document is fetched through the SSRF guard (no private
 * addresses unless SEARCHMUX_FETCH_ALLOWLIST names them, no redirects) within CLIENT_DOCUMENT_MAX_BYTES
 * and CLIENT_DOCUMENT_TIMEOUT_MS, must name itself as `client_id`, and is kept as long as its
 * Cache-Control allows (clamped to a minute … a day).
 */
import { safeFetch } from "@/lib/http/safe-fetch";
import { SsrfBlocked } from "@/lib/http/ssrf";
import type { Env } from "@/lib/pipeline/context";
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

const refused = (url: string, why: string) =>
  new OAuthError("invalid_client", `the client metadata document at ${url} ${why}`);

/** Fetches and validates the document at `url`; an OAuthError `invalid_client` says why it is refused. */
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
    if (error instanceof SsrfBlocked) throw refused(url, `cannot be fetched: ${error.message}`);
    throw refused(url, `could not be fetched: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (response.status !== 200) throw refused(url, `answered HTTP ${response.status}`);
  let document: unknown;
  try {
    document = JSON.parse(response.body.toString("utf8"));
  } catch {
    throw refused(url, "is not JSON");
  }
  if (typeof document !== "object" || document === null || Array.isArray(document)) {
    throw refused(url, "is not a JSON object");
  }
  if ((document as { client_id?: unknown }).client_id !== url) {
    throw refused(url, "does not name that URL as its client_id");
  }
  const metadata = parseClientMetadata(document, "none");
  if (metadata.tokenEndpointAuthMethod !== "none") {
    // A document anyone can read cannot carry a shared secret; private_key_jwt is not supported.
    throw refused(url, "must use token_endpoint_auth_method 'none'");
  }
  return { metadata, maxAgeSeconds: maxAge(response.headers["cache-control"]) };
}
