import { redirect } from "next/navigation";
import type { Session } from "next-auth";
import { cache } from "react";
import { sessionContext } from "@/lib/auth/context";
import { currentSession } from "@/lib/auth/session";
import type { SystemContext, TenantContext } from "@/lib/pipeline/context";
import { systemContext } from "@/lib/pipeline/platform";

export interface DashboardSession {
  session: Session;
  /** The signed-in user's service context: every page and action calls verbs with it. */
  ctx: TenantContext;
  /** Owners and admins hold the admin scope; the verbs enforce it, pages use it to choose what to offer. */
  canAdminister: boolean;
}

/** The signed-in user of this request (once per request), or a redirect to the sign-in page. */
export const dashboardSession = cache(async (): Promise<DashboardSession> => {
  const session = await currentSession();
  if (!session) redirect("/signin");
  // The pages' own calls are the playground's (its Research tab starts jobs through actions/research.ts).
  const ctx = await sessionContext(session, "playground");
  return { session, ctx, canAdminister: ctx.scopes.includes("admin") };
});

/** The signed-in user as the actor of the few cross-tenant verbs (operator pages, invitations). */
export async function userSystemContext(): Promise<SystemContext> {
  const { session } = await dashboardSession();
  return systemContext({ kind: "user", userId: session.user.id });
}
