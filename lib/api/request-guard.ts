/**
 * Refuses requests a browser page on another site could make (DNS rebinding, cross-site POSTs) to the MCP
 * endpoint and the playground's run route, before any token or session is checked or a tool runs. The Host must be an allowed one (AUTH_URL's, those in
 * SEARCHMUX_ALLOWED_HOSTS, else the loopback names; see allowedHosts in lib/config.ts). Non-browser
 * clients send no Origin and pass; a browser page passes only from the origin it addressed: AUTH_URL's,
 * or the Host's own.
 */

import type { AllowedHost } from "@/lib/config";
import { foreignHostReason } from "./allowed-host";

export interface RequestGuardConfig {
  publicUrl: string | undefined;
  allowedHosts: readonly AllowedHost[];
}

/** Why the request is refused, or null when it may proceed. */
export function foreignRequestReason(
  request: Request,
  { publicUrl, allowedHosts }: RequestGuardConfig,
): string | null {
  const host = request.headers.get("host");
  const foreignHost = foreignHostReason(host, allowedHosts);
  if (foreignHost) return foreignHost;
  const origin = request.headers.get("origin");
  if (origin === null) return null;
  const publicOrigin = publicUrl ? new URL(publicUrl) : undefined;
  const sameOrigin =
    publicOrigin?.host === host ? publicOrigin.origin : `${new URL(request.url).protocol}//${host}`;
  return origin === sameOrigin ? null : `cross-origin requests from '${origin}' are not allowed`;
}
