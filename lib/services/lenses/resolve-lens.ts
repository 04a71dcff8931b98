import { and, eq } from "drizzle-orm";
import { lenses } from "@/lib/db/schema";
import type { TenantContext } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { BUILT_IN_LENSES } from "./built-in-lenses";
import { type Lens, lensFromRow } from "./lens";
import { listLenses } from "./list-lenses";

/**
 * The lens a search names: the tenant's own, else the built-in one (the operator has only those); unknown
 * names are input errors.
 */
export async function resolveLens(ctx: TenantContext, name: string): Promise<Lens> {
  const [row] = await ctx.records.read(ctx, (tx) =>
    tx
      .select()
      .from(lenses)
      .where(and(eq(lenses.tenantId, ctx.tenantId), eq(lenses.name, name))),
  );
  const lens = row ? lensFromRow(row) : BUILT_IN_LENSES.find((builtIn) => builtIn.name === name);
  if (lens) return lens;
  const available = (await listLenses({ ctx })).map((known) => known.name);
  throw new ServiceError("invalid_input", `unknown lens '${name}'; available: ${available.join(", ")}`, {
    available,
  });
}
