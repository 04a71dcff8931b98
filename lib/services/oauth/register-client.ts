import { and, count, eq, inArray, lt } from "drizzle-orm";
import { oauthClients } from "@/lib/db/schema";
import type { Platform } from "@/lib/pipeline/context";
import { slidingWindow } from "@/lib/pipeline/rate-limit/sliding-window";
import { parseClientMetadata } from "./client-metadata";
import { OAuthError } from "./oauth-error";
import {
  MAX_UNUSED_CLIENTS,
  NEW_CLIENT_SECONDS,
  REGISTRATIONS_PER_ADDRESS_HOUR,
  REGISTRATIONS_PER_HOUR,
} from "./policy";
import { redirectHost } from "./redirect-uris";
import { CLIENT_ID_PREFIX, CLIENT_SECRET_PREFIX, hashSecret, newSecret } from "./secrets";

/** Expired registrations deleted per registration: the table shrinks as fast as anyone can fill it. */
const PRUNE_BATCH = 100;

async function assertWithinLimits(ctx: Platform, address: string | null): Promise<void> {
  const nowMs = ctx.now().getTime();
  const decision = address
    ? await slidingWindow(ctx.kv, `oauth-register:${address}`, REGISTRATIONS_PER_ADDRESS_HOUR, 3600, nowMs)
    : await slidingWindow(ctx.kv, "oauth-register:unknown-address", REGISTRATIONS_PER_HOUR, 3600, nowMs);
  if (!decision.ok) {
    throw new OAuthError(
      "temporarily_unavailable",
      "too many client registrations; try again later",
      decision.retryAfter,
    );
  }
}

/**
 * Dynamic Client Registration (RFC 7591), open to anyone, so bounded: registrations per client address
 * per hour (all together when no trusted proxy tells the address), at most MAX_UNUSED_CLIENTS clients
 * nobody has authorized yet, and a client nobody authorizes within NEW_CLIENT_SECONDS is forgotten
 * (deleted by later registrations). A confidential client (client_secret_basic or _post) gets a secret,
 * shown once; public clients (`none`) none. Answers the RFC 7591 §3.2.1 client information.
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
    const expired = tx
      .select({ id: oauthClients.id })
      .from(oauthClients)
      .where(and(eq(oauthClients.kind, "registered"), lt(oauthClients.expiresAt, now)))
      .limit(PRUNE_BATCH);
    await tx.delete(oauthClients).where(inArray(oauthClients.id, expired));
    // New, never authorized clients expire within NEW_CLIENT_SECONDS; authorized ones much later.
    const [pending] = await tx
      .select({ n: count() })
      .from(oauthClients)
      .where(
        and(
          eq(oauthClients.kind, "registered"),
          lt(oauthClients.expiresAt, new Date(now.getTime() + NEW_CLIENT_SECONDS * 1000 + 1000)),
        ),
      );
    if ((pending?.n ?? 0) >= MAX_UNUSED_CLIENTS) {
      throw new OAuthError(
        "temporarily_unavailable",
        "too many clients are registered and not yet authorized; try again later",
        3600,
      );
    }
    await tx.insert(oauthClients).values({
      id,
      kind: "registered",
      name,
      clientUri: metadata.clientUri ?? null,
      redirectUris: metadata.redirectUris,
      tokenEndpointAuthMethod: metadata.tokenEndpointAuthMethod,
      secretHash: secret === null ? null : hashSecret(secret),
      createdAt: now,
      expiresAt: new Date(now.getTime() + NEW_CLIENT_SECONDS * 1000),
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
