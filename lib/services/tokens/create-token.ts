import { and, count, eq, gt, isNull, ne, or } from "drizzle-orm";
import { z } from "zod";
import { tenantLimits } from "@/lib/config";
import type { Tx } from "@/lib/db";
import { apiTokens, tenants } from "@/lib/db/schema";
import { writeAudit } from "@/lib/pipeline/audit";
import {
  type Actor,
  DEFAULT_TOKEN_SCOPES,
  type ProfileRules,
  SCOPES,
  type TenantContext,
} from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { parseInput } from "@/lib/pipeline/validate";
import { connectionProfileInput } from "./connection-profile";
import { generateToken, hashToken, tokenDisplay } from "./token-format";
import { assertGrantable, assertManagesTokens } from "./token-managers";

export const createTokenInput = z.strictObject({
  name: z.string().trim().min(1).max(100),
  scopes: z.array(z.enum(SCOPES)).min(1).max(SCOPES.length).optional(),
  expiresAt: z.coerce.date().optional(),
  /** Checked by the caller's `profiles` rules (lib/tools/profile.ts) against the token's scopes. */
  profile: connectionProfileInput.optional(),
});

/**
 * The member a new token answers to: the signed-in user or, for a token minted with a token, that token's
 * creator, so that removing a member also revokes what their tokens minted. The operator's are nobody's.
 */
async function creatorOf(tx: Tx, actor: Actor): Promise<string | null> {
  if (actor.kind === "user") return actor.userId;
  if (actor.kind === "operator") return null;
  const [minter] = await tx
    .select({ createdBy: apiTokens.createdBy })
    .from(apiTokens)
    .where(eq(apiTokens.id, actor.tokenId));
  return minter?.createdBy ?? null;
}

/**
 * Creates an API token; the secret is in the result once and never stored. Admins create any token, a
 * member tokens of their own within their role's scopes (token-managers.ts). A `profile` needs `profiles`,
 * the rules that check it against the tool table (services cannot read it). A workspace holds at most
 * SEARCHMUX_MAX_TOKENS_PER_TENANT active (neither revoked nor expired) tokens: the tenant row is locked
 * while they are counted, so concurrent creations cannot pass the cap together. `replaces`: the token a
 * rotation revokes right after; it does not count, so a workspace at the cap can still rotate a token.
 */
export async function createToken({
  ctx,
  input,
  replaces,
  profiles,
}: {
  ctx: TenantContext;
  input: z.input<typeof createTokenInput>;
  replaces?: string;
  profiles?: ProfileRules;
}) {
  assertManagesTokens(ctx);
  const { name, scopes, expiresAt, profile: asked } = parseInput(createTokenInput, input);
  if (expiresAt && expiresAt <= ctx.now())
    throw new ServiceError("invalid_input", "expiresAt must be in the future");
  const granted = [...new Set(scopes ?? DEFAULT_TOKEN_SCOPES)];
  assertGrantable(ctx, granted);
  if (asked != null && !profiles) throw new Error("createToken was given a profile without its rules");
  const profile = profiles?.(asked, granted) ?? null;
  const token = generateToken();

  const { maxTokensPerTenant } = tenantLimits(ctx.env);
  const row = await ctx.db.withTenant(ctx.tenantId, async (tx) => {
    // NO KEY UPDATE: serialises token creations without blocking inserts that reference the tenant.
    const [tenant] = await tx.select({ id: tenants.id }).from(tenants).for("no key update");
    if (!tenant) throw new ServiceError("not_found", "tenant not found");
    const [active] = await tx
      .select({ n: count() })
      .from(apiTokens)
      .where(
        and(
          eq(apiTokens.tenantId, ctx.tenantId),
          isNull(apiTokens.revokedAt),
          // Connected apps' short-lived access tokens are not what the cap is about.
          isNull(apiTokens.grantId),
          or(isNull(apiTokens.expiresAt), gt(apiTokens.expiresAt, ctx.now())),
          replaces === undefined ? undefined : ne(apiTokens.id, replaces),
        ),
      );
    if ((active?.n ?? 0) >= maxTokensPerTenant) {
      throw new ServiceError(
        "conflict",
        `this workspace already has ${maxTokensPerTenant} active tokens, the most allowed (SEARCHMUX_MAX_TOKENS_PER_TENANT); revoke one first`,
        { limit: maxTokensPerTenant },
      );
    }
    const [created] = await tx
      .insert(apiTokens)
      .values({
        tenantId: ctx.tenantId,
        name,
        scopes: granted,
        tokenHash: hashToken(token),
        ...tokenDisplay(token),
        createdBy: await creatorOf(tx, ctx.actor),
        expiresAt,
        profile,
      })
      .returning({ id: apiTokens.id, createdAt: apiTokens.createdAt });
    if (!created) throw new Error("token insert returned no row");
    await writeAudit(tx, {
      tenantId: ctx.tenantId,
      actor: ctx.actor,
      action: "token.create",
      targetType: "api_token",
      targetId: created.id,
      details: { name, scopes: granted, last4: token.slice(-4), ...(profile && { profile }) },
    });
    return created;
  });
  return {
    id: row.id,
    name,
    scopes: granted,
    profile,
    token,
    createdAt: row.createdAt,
    expiresAt: expiresAt ?? null,
  };
}
