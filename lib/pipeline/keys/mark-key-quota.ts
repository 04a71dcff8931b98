import { and, eq, isNull, lte, or, sql } from "drizzle-orm";
import { providerKeys } from "@/lib/db/schema";
import type { TenantContext } from "@/lib/pipeline/context";

/**
 * A provider refused the tenant's stored key for its quota, credit or payment limit during a real call: the
 * key's row says until when, so the dashboard and GET /api/v1/keys show it. Only a key not already in that
 * state changes (none yet, or a pause that has ended), which is also what fires `key.quota`, once per turn
 * into the state however many calls and instances meet the refusal (the trigger of drizzle/0020). Not a
 * tenant action, so no audit row; the operator stores no keys, its context's records change nothing.
 */
export async function markKeyQuota({
  ctx,
  input,
}: {
  ctx: TenantContext;
  input: { provider: string; until: Date };
}) {
  await ctx.records.write(ctx, (tx) =>
    tx
      .update(providerKeys)
      .set({ quotaUntil: input.until })
      .where(
        and(
          eq(providerKeys.tenantId, ctx.tenantId),
          eq(providerKeys.provider, input.provider),
          or(isNull(providerKeys.quotaUntil), lte(providerKeys.quotaUntil, sql`now()`)),
        ),
      ),
  );
}
