import { and, arrayContains, eq, isNull } from "drizzle-orm";
import type { Tx } from "@/lib/db";
import { apiTokens } from "@/lib/db/schema";
import { writeAudit } from "@/lib/pipeline/audit";
import type { Scope, TenantContext } from "@/lib/pipeline/context";

/**
 * Revokes, inside the caller's transaction, the tenant's tokens that are not yet revoked (only those
 * `createdBy` created, and only those holding `scope`, when given), with an audit row each naming
 * `reason`. Returns their hashes: pass them to `tombstoneTokens` once the transaction committed.
 */
export async function revokeLiveTokens(
  tx: Tx,
  ctx: TenantContext,
  { createdBy, scope, reason }: { createdBy?: string; scope?: Scope; reason: string },
): Promise<string[]> {
  const revoked = await tx
    .update(apiTokens)
    .set({ revokedAt: ctx.now() })
    .where(
      and(
        eq(apiTokens.tenantId, ctx.tenantId),
        isNull(apiTokens.revokedAt),
        createdBy === undefined ? undefined : eq(apiTokens.createdBy, createdBy),
        scope === undefined ? undefined : arrayContains(apiTokens.scopes, [scope]),
      ),
    )
    .returning({ id: apiTokens.id, hash: apiTokens.tokenHash, name: apiTokens.name, last4: apiTokens.last4 });
  for (const token of revoked) {
    await writeAudit(tx, {
      tenantId: ctx.tenantId,
      actor: ctx.actor,
      action: "token.revoke",
      targetType: "api_token",
      targetId: token.id,
      details: {
        name: token.name,
        last4: token.last4,
        reason,
        ...(createdBy === undefined ? {} : { creator: createdBy }),
      },
    });
  }
  return revoked.map((token) => token.hash);
}
