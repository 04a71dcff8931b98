import { timingSafeEqual } from "node:crypto";
import type { Platform } from "@/lib/pipeline/context";
import { OAuthError } from "./oauth-error";
import { type OAuthClient, storedClient } from "./resolve-client";
import { hashSecret } from "./secrets";

/** How a client identified itself at the token or revocation endpoint (Basic header or form fields). */
export interface ClientCredentials {
  clientId: string | undefined;
  clientSecret: string | undefined;
}

const sameHash = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * The one description of every refused client authentication: whether the client is unknown, expired, or
 * sent a wrong secret, and whatever its id names, is nobody's business at the token endpoint.
 */
export const CLIENT_AUTHENTICATION_FAILED = "client authentication failed";

/**
 * The client making a token or revocation request, as stored (storedClient: nothing is fetched here): a
 * public client names itself (and sends no secret), a confidential one proves it with its secret (either
 * way it registered for). `invalid_client` otherwise.
 */
export async function authenticateClient({
  ctx,
  input,
}: {
  ctx: Platform;
  input: ClientCredentials;
}): Promise<OAuthClient> {
  const { clientId, clientSecret } = input;
  if (!clientId) throw new OAuthError("invalid_client", "client authentication is required (client_id)");
  const client = await storedClient({ ctx, input: { clientId } });
  const authenticated =
    client?.tokenEndpointAuthMethod === "none"
      ? !clientSecret
      : !!clientSecret && !!client?.secretHash && sameHash(hashSecret(clientSecret), client.secretHash);
  if (!client || !authenticated) throw new OAuthError("invalid_client", CLIENT_AUTHENTICATION_FAILED);
  return client;
}
