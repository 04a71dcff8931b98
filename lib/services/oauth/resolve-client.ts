import { and, eq, gt } from "drizzle-orm";
import { oauthClients } from "@/lib/db/schema";
import type { Platform } from "@/lib/pipeline/context";
import { fetchClientDocument, isClientDocumentUrl } from "./client-document";
import type { TokenEndpointAuthMethod } from "./client-metadata";
import { OAuthError } from "./oauth-error";

export type OAuthClient = Pick<
  typeof oauthClients.$inferSelect,
  "id" | "kind" | "name" | "clientUri" | "redirectUris" | "secretHash"
> & { tokenEndpointAuthMethod: TokenEndpointAuthMethod };

const unknownClient = () => new OAuthError("invalid_client", "unknown client_id");

/**
 * The client `clientId` names: a registered client that has not expired, or the Client ID Metadata
 * Document at that URL, from the cache while it is fresh and else fetched (client-document.ts) and cached.
 * Throws OAuthError `invalid_client` saying why not.
 */
export async function resolveClient({
  ctx,
  input,
}: {
  ctx: Platform;
  input: { clientId: string };
}): Promise<OAuthClient> {
  const { clientId } = input;
  const [known] = await ctx.db.withSystem((tx) =>
    tx
      .select()
      .from(oauthClients)
      .where(and(eq(oauthClients.id, clientId), gt(oauthClients.expiresAt, ctx.now()))),
  );
  // Rows are written only from parsed metadata (client-metadata.ts), so the method is one of the known ones.
  if (known) return known as OAuthClient;
  if (!isClientDocumentUrl(clientId)) throw unknownClient();

  const { metadata, maxAgeSeconds } = await fetchClientDocument(clientId, ctx.env);
  const row = {
    kind: "metadata_document" as const,
    name: metadata.name ?? new URL(clientId).host,
    clientUri: metadata.clientUri ?? null,
    redirectUris: metadata.redirectUris,
    tokenEndpointAuthMethod: metadata.tokenEndpointAuthMethod,
    secretHash: null,
    expiresAt: new Date(ctx.now().getTime() + maxAgeSeconds * 1000),
  };
  await ctx.db.withSystem((tx) =>
    tx
      .insert(oauthClients)
      .values({ id: clientId, ...row })
      .onConflictDoUpdate({ target: oauthClients.id, set: row }),
  );
  return { id: clientId, ...row };
}
