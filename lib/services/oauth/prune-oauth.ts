import { sql } from "drizzle-orm";
import { queryRows, type Tx } from "@/lib/db";

/**
 * How long what has ended stays visible (a revoked or lapsed connected app, its tokens with their last
 * use) before it is deleted.
 */
const ENDED_OAUTH_KEPT_DAYS = 30;

/**
 * Deletes, in `tx` (a system transaction), the OAuth records nobody can use any more, so the tables do not
 * grow with every client that ever registered or signed in:
 * - authorization codes expired a day ago (used or not: they live minutes);
 * - refresh tokens expired 30 days ago (rotated ones are kept until then, so reuse is still detected);
 * - grants revoked 30 days ago, or whose refresh tokens all expired 30 days ago: with their access tokens
 *   (traces and audit rows keep their rows, without the token);
 * - clients past their expiry that no grant or code refers to (registered or known by a metadata document:
 *   nobody authorized them within NEW_CLIENT_SECONDS, or their grants were deleted).
 * One statement: each part sees the rows as they were, so a client freed by a grant deleted here goes
 * on the next run.
 */
export async function deleteEndedOAuthRecords(tx: Tx, now: Date): Promise<number> {
  const at = sql`${now.toISOString()}::timestamptz`;
  const ended = sql`${at} - make_interval(days => ${ENDED_OAUTH_KEPT_DAYS})`;
  const [row] = await queryRows<{ deleted: string }>(
    tx,
    sql`with codes as (
          delete from oauth_codes where expires_at < ${at} - interval '1 day' returning 1
        ), refresh_tokens as (
          delete from oauth_refresh_tokens where expires_at < ${ended} returning 1
        ), grants as (
          delete from oauth_grants g
           where g.created_at < ${ended}
             and (g.revoked_at < ${ended}
                  or not exists (select 1 from oauth_refresh_tokens r
                                  where r.grant_id = g.id and r.expires_at >= ${ended}))
          returning 1
        ), clients as (
          delete from oauth_clients c
           where c.expires_at < ${at}
             and not exists (select 1 from oauth_grants g where g.client_id = c.id)
             and not exists (select 1 from oauth_codes k where k.client_id = c.id)
          returning 1
        )
        select (select count(*) from codes) + (select count(*) from refresh_tokens)
             + (select count(*) from grants) + (select count(*) from clients) as deleted`,
  );
  return Number(row?.deleted ?? 0);
}
