import { and, eq } from "drizzle-orm";
import type { Tx } from "@/lib/db";
import { memberships } from "@/lib/db/schema";
import type { Scope } from "@/lib/pipeline/context";
import { appScopesOfRole } from "@/lib/services/accounts/role-scopes";

/**
 * Of `scopes`, those a connected app of this member may still hold (their role's, never admin); null when
 * the member has left the workspace. Asked at every code exchange and refresh, so a demotion or a
 * departure takes effect at the app's next token.
 */
export async function memberAppScopes(
  tx: Tx,
  member: { tenantId: string; userId: string },
  scopes: readonly string[],
): Promise<Scope[] | null> {
  const [membership] = await tx
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.tenantId, member.tenantId), eq(memberships.userId, member.userId)));
  if (!membership) return null;
  const held = appScopesOfRole(membership.role);
  return scopes.filter((scope): scope is Scope => held.includes(scope as Scope));
}
