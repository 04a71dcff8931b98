/**
 * Redirect URIs (OAuth 2.1 §2.3.1, RFC 8252): which a client may register, and whether an authorization
 * request's matches one. Registered: HTTPS, HTTP to a loopback address (native apps), or a native app's
 * private-use scheme (`cursor://…`); never a fragment or a scheme a browser runs (javascript:, data:).
 * Matching is exact, except that a loopback URI's port may differ (RFC 8252 §7.3: the app picks a free
 * port when it starts).
 */
import { MAX_URI_LENGTH } from "./policy";

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);
const REFUSED_SCHEMES = new Set([
  "http:",
  "javascript:",
  "data:",
  "vbscript:",
  "file:",
  "blob:",
  "about:",
  "ws:",
  "wss:",
  "ftp:",
]);

const isLoopback = (url: URL) => url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname);

/** Why `uri` cannot be a redirect URI, or null when it may. */
export function redirectUriRefusal(uri: string): string | null {
  if (uri.length > MAX_URI_LENGTH) return `a redirect URI is at most ${MAX_URI_LENGTH} characters`;
  if (!URL.canParse(uri)) return `'${uri.slice(0, 200)}' is not an absolute URI`;
  const url = new URL(uri);
  if (url.hash !== "" || uri.includes("#")) return "a redirect URI has no fragment";
  if (url.username || url.password) return "a redirect URI carries no credentials";
  if (url.protocol === "https:" || isLoopback(url)) return null;
  if (REFUSED_SCHEMES.has(url.protocol)) {
    return url.protocol === "http:"
      ? "plain HTTP redirect URIs are allowed only to a loopback address (127.0.0.1, [::1], localhost)"
      : `the ${url.protocol} scheme cannot be a redirect URI`;
  }
  return null;
}

/** Whether `requested` is one of `registered`, a loopback one on any port. */
export function matchesRedirectUri(requested: string, registered: readonly string[]): boolean {
  if (registered.includes(requested)) return true;
  if (!URL.canParse(requested)) return false;
  const wanted = new URL(requested);
  if (!isLoopback(wanted)) return false;
  return registered.some((uri) => {
    if (!URL.canParse(uri)) return false;
    const candidate = new URL(uri);
    candidate.port = wanted.port;
    return isLoopback(candidate) && candidate.href === wanted.href;
  });
}

/** The host a consent page names for a redirect URI (its scheme for private-use schemes). */
export function redirectHost(uri: string): string {
  if (!URL.canParse(uri)) return "an unknown host";
  const url = new URL(uri);
  return url.host === "" ? url.protocol.replace(/:$/, "") : url.host;
}

export const isLoopbackRedirect = (uri: string) => URL.canParse(uri) && isLoopback(new URL(uri));
