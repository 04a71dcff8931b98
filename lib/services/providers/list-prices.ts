/**
 * The price table as calls are charged: every entry of lib/providers/prices.ts with the operator's
 * SEARCHMUX_PRICES applied, the fields it set named, and where each price was read and when. Any member may
 * read it (the Budgets page): prices are the same for every workspace.
 */
import type { TenantContext } from "@/lib/pipeline/context";
import { priceTable } from "@/lib/pipeline/providers/prices";

export function listPrices({ ctx }: { ctx: TenantContext }) {
  return priceTable(ctx.env);
}
