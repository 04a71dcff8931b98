import { eq, type SQL } from "drizzle-orm";
import { apiTokens } from "@/lib/db/schema";
import { assertScope, type Scope, type TenantContext } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";

/**
 * Who manages which tokens: the admin scope manages every token of the workspace; a signed-in member
 * without it creates, lists and revokes their own (created by them), with no more rights than their
 * role gives them; anyone else (a token without the admin scope) none.
 */

/** Refuses callers who manage no tokens: neither the admin scope nor a signed-in member. */
export function assertManagesTokens(ctx: TenantContext): void {
  if (ctx.actor.kind !== "user") assertScope(ctx, "admin");
}

/** The filter on api_tokens for the tokens the caller manages (none for admins); refuses as above. */
export function managedTokens(ctx: TenantContext): SQL | undefined {
  assertManagesTokens(ctx);
  if (ctx.scopes.includes("admin") || ctx.actor.kind !== "user") return undefined;
  return eq(apiTokens.createdBy, ctx.actor.userId);
}

/** Refuses a member scopes beyond their own: their token can do no more than they can. Admins grant any. */
export function assertGrantable(ctx: TenantContext, scopes: readonly Scope[]): void {
  if (ctx.scopes.includes("admin")) return;
  const beyond = scopes.filter((scope) => !ctx.scopes.includes(scope));
  if (beyond.length > 0) {
    throw new ServiceError(
      "forbidden",
      `a token gets at most its creator's rights; your role does not include: ${beyond.join(", ")}`,
      { scopes: beyond },
    );
  }
}
