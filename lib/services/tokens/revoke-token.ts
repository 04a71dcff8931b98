import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { apiTokens } from "@/lib/db/schema";
import { writeAudit } from "@/lib/pipeline/audit";
import type { TenantContext, VerbArgs } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { parseInput } from "@/lib/pipeline/validate";
import { managedTokens } from "./token-managers";
import { tombstoneTokens } from "./verify-token";

export const revokeTokenInput = z.strictObject({ id: z.uuid() });

/**
 * Revokes a token the caller manages (token-managers.ts; any other is not found); every instance refuses it
 * as soon as the shared KV holds its tombstone.
 */
export async function revokeToken({ ctx, input }: VerbArgs<TenantContext, typeof revokeTokenInput>) {
  const managed = managedTokens(ctx);
  const { id } = parseInput(revokeTokenInput, input);
  const revoked = await ctx.db.withTenant(ctx.tenantId, async (tx) => {
    const [row] = await tx
      .update(apiTokens)
      .set({ revokedAt: ctx.now() })
      .where(
        and(eq(apiTokens.tenantId, ctx.tenantId), eq(apiTokens.id, id), isNull(apiTokens.revokedAt), managed),
      )
      .returning({ hash: apiTokens.tokenHash, name: apiTokens.name, last4: apiTokens.last4 });
    if (!row) throw new ServiceError("not_found", "token not found");
    await writeAudit(tx, {
      tenantId: ctx.tenantId,
      actor: ctx.actor,
      action: "token.revoke",
      targetType: "api_token",
      targetId: id,
      details: { name: row.name, last4: row.last4 },
    });
    return row;
  });
  await tombstoneTokens(ctx.kv, [revoked.hash]);
  return { id, revoked: true };
}
