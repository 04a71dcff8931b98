import { and, count, eq, gt, inArray, lt, sql } from "drizzle-orm";
import type { Tx } from "@/lib/db";
import { oauthClients } from "@/lib/db/schema";
import { OAuthError } from "./oauth-error";
import { MAX_UNUSED_CLIENTS, NEW_CLIENT_SECONDS } from "./policy";

/** Expired clients deleted per new one: the table shrinks as fast as anyone can fill it. */
const PRUNE_BATCH = 100;

export type OAuthClientKind = (typeof oauthClients.$inferSelect)["kind"];

/**
 * Room, in `tx`, for one more client of `kind` that nobody has authorized yet; answers when it is forgotten
 * unless authorized (NEW_CLIENT_SECONDS). Deletes a batch of the kind's expired clients, and refuses
 * (`temporarily_unavailable`) while MAX_UNUSED_CLIENTS of the kind are waiting for an authorization. Each
 * kind has its own bound, so anonymous registrations cannot crowd out the documents members bring to the
 * consent page. The count and the caller's insert are serialized per kind (a transaction-level advisory
 * lock), so concurrent callers cannot pass the bound together.
 */
export async function newClientExpiry(tx: Tx, kind: OAuthClientKind, now: Date): Promise<Date> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`searchmux.oauth-new-clients.${kind}`}))`);
  const expired = tx
    .select({ id: oauthClients.id })
    .from(oauthClients)
    .where(and(eq(oauthClients.kind, kind), lt(oauthClients.expiresAt, now)))
    .limit(PRUNE_BATCH);
  await tx.delete(oauthClients).where(inArray(oauthClients.id, expired));

  const expiresAt = new Date(now.getTime() + NEW_CLIENT_SECONDS * 1000);
  // An authorization moves a client's expiry months on (IDLE_CLIENT_SECONDS): those expiring by a new
  // one's expiry are the ones nobody authorized.
  const [pending] = await tx
    .select({ n: count() })
    .from(oauthClients)
    .where(
      and(
        eq(oauthClients.kind, kind),
        gt(oauthClients.expiresAt, now),
        lt(oauthClients.expiresAt, new Date(expiresAt.getTime() + 1000)),
      ),
    );
  if ((pending?.n ?? 0) >= MAX_UNUSED_CLIENTS) {
    throw new OAuthError(
      "temporarily_unavailable",
      "too many new applications are waiting for a first approval; try again later",
      NEW_CLIENT_SECONDS,
    );
  }
  return expiresAt;
}
