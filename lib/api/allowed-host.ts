/**
 * Transport: whether a request's Host header names this deployment (config().allowedHosts). A browser
 * always sends the name it resolved and a page cannot change it, so a page on another name that was made
 * to resolve to this server (DNS rebinding) is told apart here. X-Forwarded-Host is never consulted: a
 * rebound page can set it.
 */
import { type AllowedHost, splitHost } from "@/lib/config";

/** Why a request for `host` is refused, or null when the host is allowed. */
export function foreignHostReason(host: string | null, allowed: readonly AllowedHost[]): string | null {
  const requested = host === null ? null : splitHost(host);
  const known = allowed.some(
    ({ name, port }) => name === requested?.name && (port === undefined || port === requested.port),
  );
  return known
    ? null
    : `requests for host '${host ?? ""}' are not served here; list it in SEARCHMUX_ALLOWED_HOSTS or set AUTH_URL to it`;
}
