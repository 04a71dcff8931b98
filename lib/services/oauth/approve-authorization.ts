import { and, eq, lt } from "drizzle-orm";
import { z } from "zod";
import { oauthClients, oauthCodes } from "@/lib/db/schema";
import { writeAudit } from "@/lib/pipeline/audit";
import { SCOPES, type SystemContext } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { parseInput } from "@/lib/pipeline/validate";
import { membershipOf } from "@/lib/services/accounts/membership-of";
import { appScopesOfRole } from "@/lib/services/accounts/role-scopes";
import { type AuthorizationParams, checkAuthorizationRequest } from "./authorization-request";
import { CODE_SECONDS, IDLE_CLIENT_SECONDS } from "./policy";
import { CODE_PREFIX, hashSecret, newSecret } from "./secrets";

export const approveAuthorizationInput = z.strictObject({
  tenantId: z.uuid(),
  scopes: z.array(z.enum(SCOPES)).min(1, "choose at least one permission").max(SCOPES.length),
});

/**
 * The signed-in member approves an authorization request for one of their workspaces, with some of the
 * scopes it asked for that their role holds: a single-use code bound to the client, redirect URI, PKCE
 * challenge, resource and scopes, valid for CODE_SECONDS, recorded in the workspace's audit log. Answers
 * where to send the browser: the code at the redirect URI (or the refusal, when the request was wrong).
 */
export async function approveAuthorization({
  ctx,
  input,
}: {
  ctx: SystemContext;
  input: { params: AuthorizationParams; resources: readonly string[] } & z.input<
    typeof approveAuthorizationInput
  >;
}) {
  if (ctx.actor.kind !== "user") throw new ServiceError("unauthorized", "sign in to approve an application");
  const { userId } = ctx.actor;
  const { tenantId, scopes } = parseInput(approveAuthorizationInput, {
    tenantId: input.tenantId,
    scopes: input.scopes,
  });
  const checked = await checkAuthorizationRequest({ ctx, input });
  if ("refused" in checked) return checked;
  const { request } = checked;

  const membership = await membershipOf({ ctx, input: { userId, tenantId } });
  if (!membership) throw new ServiceError("forbidden", "you are not a member of that workspace");
  const held = appScopesOfRole(membership.role);
  const granted = request.scopes.filter((scope) => scopes.includes(scope) && held.includes(scope));
  if (granted.length === 0) {
    throw new ServiceError("invalid_input", "choose at least one permission the application asked for", [
      { path: "scopes", message: "choose at least one permission the application asked for" },
    ]);
  }

  const code = newSecret(CODE_PREFIX);
  const now = ctx.now();
  await ctx.db.withTenant(tenantId, async (tx) => {
    // Codes live minutes; the workspace's expired ones go as new ones come.
    await tx.delete(oauthCodes).where(and(eq(oauthCodes.tenantId, tenantId), lt(oauthCodes.expiresAt, now)));
    await tx.insert(oauthCodes).values({
      codeHash: hashSecret(code),
      tenantId,
      clientId: request.client.id,
      userId,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      scopes: granted,
      resource: request.resource,
      expiresAt: new Date(now.getTime() + CODE_SECONDS * 1000),
    });
    await writeAudit(tx, {
      tenantId,
      actor: ctx.actor,
      action: "oauth.authorize",
      targetType: "oauth_client",
      targetId: request.client.id,
      details: { client_name: request.client.name, scopes: granted, redirect_uri: request.redirectUri },
    });
  });
  // An authorized client (registered, or known by its document) is kept while it is in use.
  await ctx.db.withSystem((tx) =>
    tx
      .update(oauthClients)
      .set({ expiresAt: new Date(now.getTime() + IDLE_CLIENT_SECONDS * 1000) })
      .where(eq(oauthClients.id, request.client.id)),
  );
  return { code, redirectUri: request.redirectUri, state: request.state };
}
