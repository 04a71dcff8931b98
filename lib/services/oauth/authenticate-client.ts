import { timingSafeEqual } from "node:crypto";
import type { Platform } from "@/lib/pipeline/context";
import { OAuthError } from "./oauth-error";
import { type OAuthClient, resolveClient } from "./resolve-client";
import { hashSecret } from "./secrets";

/** How a client identified itself at the token or revocation endpoint (Basic header or form fields). */
export interface ClientCredentials {
  clientId: string | undefined;
  clientSecret: string | undefined;
}

const sameHash = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * The client making a token or revocation request: a public client names itself (and sends no secret),
 * a confidential one proves it with its secret (either way it registered for). `invalid_client` otherwise.
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
  const client = await resolveClient({ ctx, input: { clientId } });
  if (client.tokenEndpointAuthMethod === "none") {
    if (clientSecret) throw new OAuthError("invalid_client", "this client is public and has no secret");
    return client;
  }
  if (!clientSecret || !client.secretHash || !sameHash(hashSecret(clientSecret), client.secretHash)) {
    throw new OAuthError("invalid_client", "client authentication failed");
  }
  return client;
}
