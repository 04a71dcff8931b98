import { asc, eq } from "drizzle-orm";
import { memberships, users } from "@/lib/db/schema";
import type { TenantContext } from "@/lib/pipeline/context";

export async function listMembers({ ctx }: { ctx: TenantContext }) {
  return ctx.db.withTenant(ctx.tenantId, (tx) =>
    tx
      .select({
        userId: users.id,
        email: users.email,
        name: users.name,
        role: memberships.role,
        since: memberships.createdAt,
      })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .orderBy(asc(memberships.createdAt)),
  );
}
