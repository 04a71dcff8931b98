import { and, desc, eq, gte, like, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { apiTokens, auditLog, oauthGrants, users } from "@/lib/db/schema";
import { assertScope, type TenantContext, type VerbArgs } from "@/lib/pipeline/context";
import { encodeCursor, olderThan } from "@/lib/pipeline/cursor";
import { parseInput } from "@/lib/pipeline/validate";

export const listAuditInput = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  /** Opaque: the `next_cursor` of the previous page. */
  cursor: z.string().max(200).optional(),
  /** An action (`token.create`), or every action of an area (`token.`). */
  action: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z_]+\.([a-z_]+)?$/, "an action (token.create) or an area followed by a dot (token.)")
    .optional(),
  /** Entries by this member, whether signed in or through one of their tokens. */
  user_id: z.uuid().optional(),
  /** Entries made with this token (or a connected app's access token). */
  token_id: z.uuid().optional(),
  /** Entries at or after this instant (ISO 8601). */
  since: z.iso.datetime({ offset: true }).optional(),
});

/** `token.` matches every action of the area; the literal dot and underscores are escaped for LIKE. */
const actionFilter = (action: string): SQL =>
  action.endsWith(".")
    ? like(auditLog.action, `${action.replace(/_/g, "\\_")}%`)
    : eq(auditLog.action, action);

/**
 * The workspace's audit log, newest first, a page at a time: who did what to which thing, when, and through
 * what (a session, a token, a connected app's token, the OAuth client itself, the operator). Admins only: it
 * names every member's actions. The rows never hold secrets (writeAudit's contract).
 */
export async function listAudit({ ctx, input }: VerbArgs<TenantContext, typeof listAuditInput>) {
  assertScope(ctx, "admin");
  const { limit, cursor, action, user_id, token_id, since } = parseInput(listAuditInput, input);
  const filters: Array<SQL | undefined> = [
    eq(auditLog.tenantId, ctx.tenantId),
    action ? actionFilter(action) : undefined,
    user_id ? eq(auditLog.actorUserId, user_id) : undefined,
    token_id ? eq(auditLog.actorTokenId, token_id) : undefined,
    since ? gte(auditLog.createdAt, new Date(since)) : undefined,
    cursor ? olderThan(auditLog, cursor) : undefined,
  ];
  const rows = await ctx.db.withTenant(ctx.tenantId, (tx) =>
    tx
      .select({
        id: auditLog.id,
        action: auditLog.action,
        target_type: auditLog.targetType,
        target_id: auditLog.targetId,
        details: auditLog.details,
        created_at: auditLog.createdAt,
        user_id: auditLog.actorUserId,
        user_name: sql<string | null>`coalesce(${users.name}, ${users.email})`,
        token_id: auditLog.actorTokenId,
        token_name: apiTokens.name,
        connection_id: apiTokens.grantId,
        connection_client_id: oauthGrants.clientId,
      })
      .from(auditLog)
      .leftJoin(users, eq(users.id, auditLog.actorUserId))
      .leftJoin(apiTokens, eq(apiTokens.id, auditLog.actorTokenId))
      .leftJoin(oauthGrants, eq(oauthGrants.id, apiTokens.grantId))
      .where(and(...filters))
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(limit + 1),
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    entries: page.map(toEntry),
    next_cursor: rows.length > limit && last ? encodeCursor(last.created_at, last.id) : null,
  };
}

type Row = {
  id: string;
  action: string;
  target_type: string;
  target_id: string | null;
  details: unknown;
  created_at: Date;
  user_id: string | null;
  user_name: string | null;
  token_id: string | null;
  token_name: string | null;
  connection_id: string | null;
  connection_client_id: string | null;
};

/** An entry with its actor: how the change was made, and by whom when a member is known. */
function toEntry(row: Row) {
  const { actor: kind, client, ...details } = (row.details ?? {}) as Record<string, unknown>;
  return {
    id: row.id,
    action: row.action,
    target_type: row.target_type,
    target_id: row.target_id,
    created_at: row.created_at,
    actor: {
      /**
       * session (a signed-in member), token, connected_app (an OAuth access token), oauth_client, operator,
       * system (Searchmux's own background work).
       */
      via: actorVia(kind, row),
      user_id: row.user_id,
      user_name: row.user_name,
      token_id: row.token_id,
      token_name: row.token_name,
      connection_id: row.connection_id,
      client_id: row.connection_client_id ?? (typeof client === "string" ? client : null),
    },
    details,
  };
}

function actorVia(kind: unknown, row: Row): string {
  if (row.connection_id) return "connected_app";
  if (kind === "user") return "session";
  return typeof kind === "string" ? kind : "operator";
}
