import { and, eq, gt, sql } from "drizzle-orm";
import { oauthClients } from "@/lib/db/schema";
import type { Platform, SystemContext } from "@/lib/pipeline/context";
import { slidingWindow } from "@/lib/pipeline/rate-limit/sliding-window";
import { fetchClientDocument, isClientDocumentUrl } from "./client-document";
import type { TokenEndpointAuthMethod } from "./client-metadata";
import { newClientExpiry } from "./new-client";
import { OAuthError } from "./oauth-error";
import { CLIENT_DOCUMENT_FETCHES_PER_MEMBER_HOUR } from "./policy";

type ClientRow = typeof oauthClients.$inferSelect;

export type OAuthClient = Pick<
  ClientRow,
  "id" | "kind" | "name" | "clientUri" | "redirectUris" | "secretHash"
> & { tokenEndpointAuthMethod: TokenEndpointAuthMethod };

const unknownClient = () => new OAuthError("invalid_client", "unknown client_id");

/** The row of `clientId` unless it expired (forgotten, even if the prune job has not deleted it yet). */
async function storedRow(ctx: Platform, clientId: string): Promise<ClientRow | undefined> {
  const [row] = await ctx.db.withSystem((tx) =>
    tx
      .select()
      .from(oauthClients)
      .where(and(eq(oauthClients.id, clientId), gt(oauthClients.expiresAt, ctx.now()))),
  );
  return row;
}

// Rows are written only from parsed metadata (client-metadata.ts), so the method is one of the known ones.
const asClient = (row: ClientRow) => row as OAuthClient;

/**
 * The client `clientId` names as stored, for the token and revocation endpoints: registered, or known by a
 * metadata document since a member reached consent with it (as the document was then: its cache may have
 * lapsed since), until the client expires. Nothing is fetched, so an anonymous caller cannot make this
 * server reach out to any URL.
 */
export async function storedClient({
  ctx,
  input,
}: {
  ctx: Platform;
  input: { clientId: string };
}): Promise<OAuthClient | undefined> {
  const row = await storedRow(ctx, input.clientId);
  return row && asClient(row);
}

/** Counts one document fetch for the member; refuses past their hourly allowance. */
async function assertFetchAllowed(ctx: Platform, userId: string): Promise<void> {
  const decision = await slidingWindow(
    ctx.kv,
    `oauth-client-document:${userId}`,
    CLIENT_DOCUMENT_FETCHES_PER_MEMBER_HOUR,
    3600,
    ctx.now().getTime(),
  );
  if (!decision.ok) {
    throw new OAuthError(
      "temporarily_unavailable",
      "too many client metadata documents read for you this hour; try again later",
      decision.retryAfter,
    );
  }
}

/**
 * The client `clientId` names, for the consent page (whose context's actor is the signed-in member): a
 * stored one that has not expired, or the Client ID Metadata Document at that URL, from the stored copy while
 * it is fresh and else fetched for the member (client-document.ts; CLIENT_DOCUMENT_FETCHES_PER_MEMBER_HOUR)
 * and stored. A new document client counts toward the bound on clients nobody authorized (new-client.ts);
 * one stored before keeps its expiry. Without a member nothing is fetched. Throws OAuthError `invalid_client`
 * (or `temporarily_unavailable`) saying why not.
 */
export async function resolveClient({
  ctx,
  input,
}: {
  ctx: Platform & Partial<Pick<SystemContext, "actor">>;
  input: { clientId: string };
}): Promise<OAuthClient> {
  const { clientId } = input;
  const now = ctx.now();
  const stored = await storedRow(ctx, clientId);
  if (stored && (stored.kind === "registered" || (stored.documentExpiresAt ?? now) > now)) {
    return asClient(stored);
  }
  if (!isClientDocumentUrl(clientId) || ctx.actor?.kind !== "user") throw unknownClient();

  await assertFetchAllowed(ctx, ctx.actor.userId);
  const { metadata, maxAgeSeconds } = await fetchClientDocument(clientId, ctx.env);
  const client = {
    id: clientId,
    kind: "metadata_document" as const,
    name: metadata.name ?? new URL(clientId).host,
    clientUri: metadata.clientUri ?? null,
    redirectUris: metadata.redirectUris,
    tokenEndpointAuthMethod: metadata.tokenEndpointAuthMethod,
    secretHash: null,
  };
  const documentExpiresAt = new Date(now.getTime() + maxAgeSeconds * 1000);
  await ctx.db.withSystem(async (tx) => {
    const expiresAt = stored?.expiresAt ?? (await newClientExpiry(tx, "metadata_document", now));
    await tx
      .insert(oauthClients)
      .values({ ...client, documentExpiresAt, expiresAt })
      .onConflictDoUpdate({
        target: oauthClients.id,
        // Stored meanwhile (or expired and not yet deleted): the later of the two expiries.
        set: {
          ...client,
          documentExpiresAt,
          expiresAt: sql`greatest(${oauthClients.expiresAt}, excluded.expires_at)`,
        },
      });
  });
  return client;
}
