import { and, eq } from "drizzle-orm";
import { providerKeys } from "@/lib/db/schema";
import type { TenantContext } from "@/lib/pipeline/context";

/**
 * A provider refused the tenant's stored key during a real call: the key is marked invalid so the
 * dashboard shows it, without waiting for a key test. Not a tenant action, so no audit row. The operator
 * stores no keys: its context's records change nothing.
 */
export async function markKeyInvalid({ ctx, input }: { ctx: TenantContext; input: { provider: string } }) {
  await ctx.records.write(ctx, (tx) =>
    tx
      .update(providerKeys)
      .set({ status: "invalid", checkedAt: ctx.now() })
      .where(and(eq(providerKeys.tenantId, ctx.tenantId), eq(providerKeys.provider, input.provider))),
  );
}
