import type { Session } from "next-auth";
import { scopesOfRole } from "@/lib/services/accounts/role-scopes";
import type { TenantContext } from "@/lib/services/context";
import { tenantContext } from "@/lib/services/platform";

/** The service context of a signed-in dashboard user. */
export function sessionContext(session: Session): Promise<TenantContext> {
  return tenantContext(
    { kind: "user", userId: session.user.id },
    session.tenantId,
    scopesOfRole(session.role),
    "playground",
  );
}
