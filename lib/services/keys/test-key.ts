import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { providerKeys } from "@/lib/db/schema";
import { requestCostMicros } from "@/lib/engine/shared/price";
import type { AttemptReport } from "@/lib/engine/shared/types";
import { writeAudit } from "@/lib/pipeline/audit";
import { admit, closeReservations } from "@/lib/pipeline/budgets/admission";
import { isOperatorModel } from "@/lib/pipeline/budgets/operator-quota";
import { microsToUsd } from "@/lib/pipeline/budgets/units";
import { assertScope, type TenantContext } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { open, storedKeyBinding } from "@/lib/pipeline/keys/key-encryption";
import { isBilledFailure } from "@/lib/pipeline/provider-attempts";
import { providerCatalog } from "@/lib/pipeline/providers/catalog";
import { priceWithOverrides } from "@/lib/pipeline/providers/prices";
import { storedEndpoint } from "@/lib/pipeline/providers/workspace-model";
import { parseInput } from "@/lib/pipeline/validate";
import { probeProvider } from "./probe-provider";

export const testKeyInput = z.strictObject({ provider: z.string().trim().toLowerCase().min(1).max(40) });

/** What one key test cost the budgets: one request and its price when the provider billed it, else nothing. */
export interface KeyTestSpend {
  requests: number;
  usd: number;
}

/**
 * Checks the tenant's stored key with one real, cheap call (probe-provider.ts; for the workspace model the
 * free list of its models, through the same guard as its calls), charged to the budgets like
 * any call, and records the verdict: ok, invalid (the provider refused the key) or unknown (anything
 * else: timeout, outage, exhausted budget). The result says what the test spent.
 */
export async function testKey({ ctx, input }: { ctx: TenantContext; input: z.input<typeof testKeyInput> }) {
  assertScope(ctx, "admin");
  const { provider: id } = parseInput(testKeyInput, input);
  const [row] = await ctx.db.withTenant(ctx.tenantId, (tx) =>
    tx
      .select()
      .from(providerKeys)
      .where(and(eq(providerKeys.tenantId, ctx.tenantId), eq(providerKeys.provider, id))),
  );
  if (!row) throw new ServiceError("not_found", `no key stored for '${id}'`);
  const apiKey = open(ctx.keyring, row, storedKeyBinding(row));
  const listed = providerCatalog().get(id)?.price;
  const costMicros = listed ? requestCostMicros(priceWithOverrides(listed, ctx.env)) : 0;

  let reservation: string | undefined;
  let attempt: AttemptReport | undefined;
  let spent: KeyTestSpend = { requests: 0, usd: 0 };
  let failure: Awaited<ReturnType<typeof probeProvider>>;
  try {
    failure = await probeProvider(
      { id, apiKey, endpoint: storedEndpoint(row.settings), env: ctx.env },
      async () => {
        const admission = await admit(ctx, {
          provider: id,
          costMicros,
          idempotencyKey: `key-test:${row.id}:${ctx.now().getTime()}`,
          // The tenant's own key, but `llm` is probed on the operator's model.
          drawsOnOperator: isOperatorModel(id),
        });
        if (!admission.ok) return { ok: false, reason: "budget_exhausted" };
        reservation = admission.reservationId;
        return { ok: true, settled: (report) => (attempt = report) };
      },
    );
  } finally {
    // Closed even when the probe throws: a call that reached the provider keeps its charge (as in a tool
    // call), one that never ran or that the provider does not bill (a refused key) is refunded at once.
    if (reservation) {
      const billed = attempt !== undefined && (!attempt.failure || isBilledFailure(attempt.failure.reason));
      await closeReservations(
        ctx,
        billed ? { kept: [reservation], refunded: [] } : { kept: [], refunded: [reservation] },
      );
      if (billed) spent = { requests: 1, usd: microsToUsd(costMicros) };
    }
  }
  if (failure === "unsupported") throw new ServiceError("invalid_input", `'${id}' cannot be tested`);
  const status = !failure ? "ok" : failure.reason === "bad_key" ? "invalid" : "unknown";

  await ctx.db.withTenant(ctx.tenantId, async (tx) => {
    await tx.update(providerKeys).set({ status, checkedAt: ctx.now() }).where(eq(providerKeys.id, row.id));
    await writeAudit(tx, {
      tenantId: ctx.tenantId,
      actor: ctx.actor,
      action: "key.test",
      targetType: "provider_key",
      targetId: row.id,
      details: { provider: id, status, reason: failure?.reason ?? null, spent },
    });
  });
  return { provider: id, status, reason: failure?.reason ?? null, detail: failure?.message ?? null, spent };
}
