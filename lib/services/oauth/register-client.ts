import { allowedHosts, LOOPBACK_HOSTS } from "@/lib/config";
import { oauthClients } from "@/lib/db/schema";
import type { Env } from "@/lib/pipeline/capabilities";
import type { Platform } from "@/lib/pipeline/context";
import { slidingWindow } from "@/lib/pipeline/rate-limit/sliding-window";
import { parseClientMetadata } from "./client-metadata";
import { newClientExpiry } from "./new-client";
import { OAuthError } from "./oauth-error";
import { LOCAL_REGISTRATIONS_PER_HOUR, REGISTRATIONS_PER_ADDRESS_HOUR } from "./policy";
import { redirectHost } from "./redirect-uris";
import { CLIENT_ID_PREFIX, CLIENT_SECRET_PREFIX, hashSecret, newSecret } from "./secrets";

/** What a caller without a client address is told where registration needs one. */
export const REGISTRATION_NEEDS_ADDRESS =
  "dynamic client registration is off: this server cannot tell its callers' addresses apart to limit it " +
  "(its operator sets SEARCHMUX_TRUSTED_PROXIES to the proxies in front of it); use a Client ID Metadata " +
  "Document (an HTTPS URL as client_id) instead";

/**
 * A server for this machine alone: no public name configured (AUTH_URL and SEARCHMUX_ALLOWED_HOSTS name
 * loopback hosts or nothing), so MCP and sign-in answer only requests for localhost.
 */
function isLocalServer(env: Env): boolean {
  return allowedHosts(env).every((host) => LOOPBACK_HOSTS.some((loopback) => loopback.name === host.name));
}

/**
 * One bucket per client address. Without an address (no trusted proxies) callers cannot be told apart, and a
 * bucket they shared would be one caller's to empty: such registrations are refused, except on a local
 * server, whose callers are this machine's own programs (mcp-remote, the MCP Inspector) and share one.
 */
async function assertWithinLimits(ctx: Platform, address: string | null): Promise<void> {
  if (address === null && !isLocalServer(ctx.env))
    throw new OAuthError("access_denied", REGISTRATION_NEEDS_ADDRESS);
  const nowMs = ctx.now().getTime();
  const decision = address
    ? await slidingWindow(ctx.kv, `oauth-register:${address}`, REGISTRATIONS_PER_ADDRESS_HOUR, 3600, nowMs)
    : await slidingWindow(ctx.kv, "oauth-register:local", LOCAL_REGISTRATIONS_PER_HOUR, 3600, nowMs);
  if (!decision.ok) {
    throw new OAuthError(
      "temporarily_unavailable",
      "too many client registrations; try again later",
      decision.retryAfter,
    );
  }
}

/**
 * Dynamic Client Registration (RFC 7591), open to anyone, so bounded: registrations per client address per
 * hour (refused without an address, but on a local server), at most MAX_UNUSED_CLIENTS registered clients
 * nobody has authorized yet, and a client nobody authorizes within NEW_CLIENT_SECONDS is forgotten (deleted
 * by later registrations and the prune-oauth job). A confidential client (client_secret_basic or _post)
 * gets a secret, shown once; public clients (`none`) none. Answers the RFC 7591 §3.2.1 client information.
 */
export async function registerClient({
  ctx,
  input,
}: {
  ctx: Platform;
  input: { metadata: unknown; address: string | null };
}) {
  const metadata = parseClientMetadata(input.metadata);
  await assertWithinLimits(ctx, input.address);
  const now = ctx.now();
  const id = newSecret(CLIENT_ID_PREFIX, 16);
  const secret = metadata.tokenEndpointAuthMethod === "none" ? null : newSecret(CLIENT_SECRET_PREFIX);
  const name = metadata.name ?? redirectHost(metadata.redirectUris[0] ?? "");

  await ctx.db.withSystem(async (tx) => {
    const expiresAt = await newClientExpiry(tx, "registered", now);
    await tx.insert(oauthClients).values({
      id,
      kind: "registered",
      name,
      clientUri: metadata.clientUri ?? null,
      redirectUris: metadata.redirectUris,
      tokenEndpointAuthMethod: metadata.tokenEndpointAuthMethod,
      secretHash: secret === null ? null : hashSecret(secret),
      createdAt: now,
      expiresAt,
    });
  });

  return {
    client_id: id,
    ...(secret === null ? {} : { client_secret: secret, client_secret_expires_at: 0 }),
    client_id_issued_at: Math.floor(now.getTime() / 1000),
    client_name: name,
    ...(metadata.clientUri ? { client_uri: metadata.clientUri } : {}),
    redirect_uris: metadata.redirectUris,
    grant_types: metadata.grantTypes,
    response_types: ["code"],
    token_endpoint_auth_method: metadata.tokenEndpointAuthMethod,
  };
}
