import { z } from "zod";
import type { SystemContext, VerbArgs } from "@/lib/pipeline/context";
import { parseInput } from "@/lib/pipeline/validate";
import { insertTenant } from "./insert-tenant";

export const createTenantInput = z.strictObject({
  name: z.string().trim().min(1).max(100),
  ownerUserId: z.uuid().optional(),
});

export async function createTenant({ ctx, input }: VerbArgs<SystemContext, typeof createTenantInput>) {
  const { name, ownerUserId } = parseInput(createTenantInput, input);
  const tenant = await ctx.db.withSystem((tx) => insertTenant(tx, ctx, name, ownerUserId));
  return { id: tenant.id, name: tenant.name, createdAt: tenant.createdAt };
}
