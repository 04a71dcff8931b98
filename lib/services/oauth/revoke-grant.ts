import { and, eq, isNull } from "drizzle-orm";
import type { Tx } from "@/lib/db";
import { apiTokens, oauthGrants } from "@/lib/db/schema";
import { type AuditEntry, writeAudit } from "@/lib/pipeline/audit";

/**
 * Revokes a grant (a connected app) inside the caller's transaction: the grant, so its refresh tokens
 * are refused, and its live access tokens, with an audit row naming `reason`. Returns the access tokens'
 * hashes: pass them to `tombstoneTokens` once the transaction committed. None when it was revoked already.
 */
export async function revokeGrant(
  tx: Tx,
  {
    tenantId,
    grantId,
    actor,
    reason,
  }: { tenantId: string; grantId: string; actor: AuditEntry["actor"]; reason: string },
  now: Date,
): Promise<string[]> {
  const [grant] = await tx
    .update(oauthGrants)
    .set({ revokedAt: now })
    .where(
      and(eq(oauthGrants.tenantId, tenantId), eq(oauthGrants.id, grantId), isNull(oauthGrants.revokedAt)),
    )
    .returning({ clientId: oauthGrants.clientId });
  if (!grant) return [];
  const tokens = await tx
    .update(apiTokens)
    .set({ revokedAt: now })
    .where(and(eq(apiTokens.tenantId, tenantId), eq(apiTokens.grantId, grantId), isNull(apiTokens.revokedAt)))
    .returning({ hash: apiTokens.tokenHash });
  await writeAudit(tx, {
    tenantId,
    actor,
    action: "oauth.revoke",
    targetType: "oauth_grant",
    targetId: grantId,
    details: { reason, oauth_client: grant.clientId, access_tokens: tokens.length },
  });
  return tokens.map((token) => token.hash);
}
