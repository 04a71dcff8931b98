/**
 * MCP: refuses requests a browser page on another site could make (DNS rebinding, cross-site POSTs),
 * before any token is checked or tool runs. Non-browser clients send no Origin and pass; a browser on
 * the product's own origin passes. With AUTH_URL set, the Host must be its host; without it (local
 * development) only the Origin is checked against the Host the request came in on.
 */

/** Why the request is refused, or null when it may proceed. */
export function foreignRequestReason(request: Request, publicUrl: string | undefined): string | null {
  const host = request.headers.get("host");
  const publicOrigin = publicUrl ? new URL(publicUrl) : undefined;
  if (publicOrigin && host !== publicOrigin.host)
    return `requests for host '${host ?? ""}' are not served here`;
  const origin = request.headers.get("origin");
  if (origin === null) return null;
  const sameOrigin = publicOrigin?.origin ?? `${new URL(request.url).protocol}//${host ?? ""}`;
  return origin === sameOrigin ? null : `cross-origin requests from '${origin}' are not allowed`;
}
