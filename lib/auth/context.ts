import type { Session } from "next-auth";
import type { Surface } from "@/lib/pipeline/capabilities";
import type { TenantContext } from "@/lib/pipeline/context";
import { tenantContext } from "@/lib/pipeline/platform";
import { scopesOfRole } from "@/lib/services/accounts/role-scopes";

/** The service context of a signed-in dashboard user, its calls traced as made through `surface`. */
export function sessionContext(session: Session, surface: Surface): Promise<TenantContext> {
  return tenantContext(
    { kind: "user", userId: session.user.id },
    session.tenantId,
    scopesOfRole(session.role),
    surface,
  );
}
