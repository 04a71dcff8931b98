import { asc, eq } from "drizzle-orm";
import { memberships, tenants } from "@/lib/db/schema";
import type { SystemContext } from "@/lib/pipeline/context";

/** The workspaces the user belongs to, with their role in each, oldest membership first. */
export async function listWorkspaces({ ctx, input }: { ctx: SystemContext; input: { userId: string } }) {
  return ctx.db.withSystem((tx) =>
    tx
      .select({ tenantId: tenants.id, name: tenants.name, role: memberships.role })
      .from(memberships)
      .innerJoin(tenants, eq(tenants.id, memberships.tenantId))
      .where(eq(memberships.userId, input.userId))
      .orderBy(asc(memberships.createdAt)),
  );
}
