import { and, eq } from "drizzle-orm";
import { memberships } from "@/lib/db/schema";
import type { SystemContext } from "@/lib/pipeline/context";

/** The user's current role in the tenant, or null when they are not (or no longer) a member. */
export async function membershipOf({
  ctx,
  input,
}: {
  ctx: SystemContext;
  input: { userId: string; tenantId: string };
}) {
  const [membership] = await ctx.db.withSystem((tx) =>
    tx
      .select({ tenantId: memberships.tenantId, role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.userId, input.userId), eq(memberships.tenantId, input.tenantId))),
  );
  return membership ?? null;
}
