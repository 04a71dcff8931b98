import type { membershipRole } from "@/lib/db/schema";
import { CONNECTED_APP_SCOPES, DEFAULT_TOKEN_SCOPES, SCOPES, type Scope } from "@/lib/pipeline/context";

export type MembershipRole = (typeof membershipRole.enumValues)[number];

/** What a member may do in a workspace: owners and admins administer it, members use the product. */
export function scopesOfRole(role: MembershipRole): readonly Scope[] {
  return role === "member" ? DEFAULT_TOKEN_SCOPES : SCOPES;
}

/** What a member of `role` may grant a connected app: their role's scopes that apps may hold. */
export function appScopesOfRole(role: MembershipRole): readonly Scope[] {
  return scopesOfRole(role).filter((scope) => CONNECTED_APP_SCOPES.includes(scope));
}
