import { assertScope, type TenantContext } from "@/lib/pipeline/context";
import { revokeLiveTokens } from "./revoke-live-tokens";
import { tombstoneTokens } from "./verify-token";

/**
 * Revokes every live token of the workspace in one transaction (an audit row each), then tombstones them
 * all: none is left live, even when another revocation of one of them runs at the same time.
 */
export async function revokeAllTokens({ ctx }: { ctx: TenantContext }) {
  assertScope(ctx, "admin");
  const hashes = await ctx.db.withTenant(ctx.tenantId, (tx) =>
    revokeLiveTokens(tx, ctx, { reason: "token.revoke_all" }),
  );
  await tombstoneTokens(ctx.kv, hashes);
  return { revoked: hashes.length };
}
