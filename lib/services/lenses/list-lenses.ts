import { asc, eq } from "drizzle-orm";
import { lenses } from "@/lib/db/schema";
import type { TenantContext } from "@/lib/pipeline/context";
import { BUILT_IN_LENSES } from "./built-in-lenses";
import { type Lens, lensFromRow } from "./lens";

/** Every lens the tenant can search with, by name: its own, and the built-in ones it has not replaced. Any token. */
export async function listLenses({ ctx }: { ctx: TenantContext }): Promise<Lens[]> {
  const rows = await ctx.records.read(ctx, (tx) =>
    tx.select().from(lenses).where(eq(lenses.tenantId, ctx.tenantId)).orderBy(asc(lenses.name)),
  );
  const own = rows.map(lensFromRow);
  const replaced = new Set(own.map((lens) => lens.name));
  return [...BUILT_IN_LENSES.filter((lens) => !replaced.has(lens.name)), ...own].sort((a, b) =>
    a.name.localeCompare(b.name),
  );
}
