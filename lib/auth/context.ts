import type { Session } from "next-auth";
import type { TenantContext } from "@/lib/pipeline/context";
import { tenantContext } from "@/lib/pipeline/platform";
import { scopesOfRole } from "@/lib/services/accounts/role-scopes";

/** The service context of a signed-in dashboard user. */
export function sessionContext(session: Session): Promise<TenantContext> {
  return tenantContext(
    { kind: "user", userId: session.user.id },
    session.tenantId,
    scopesOfRole(session.role),
    "playground",
  );
}
