import type { Session } from "next-auth";
import { DEFAULT_TOKEN_SCOPES, SCOPES, type Scope, type TenantContext } from "@/lib/services/context";
import { tenantContext } from "@/lib/services/platform";

/** Owners and admins administer the tenant; members use the product. */
function scopesFor(role: Session["role"]): readonly Scope[] {
  return role === "member" ? DEFAULT_TOKEN_SCOPES : SCOPES;
}

/** The service context of a signed-in dashboard user. */
export function sessionContext(session: Session): Promise<TenantContext> {
  return tenantContext(
    { kind: "user", userId: session.user.id },
    session.tenantId,
    scopesFor(session.role),
    "playground",
  );
}
