import { and, eq, ne, notInArray, sql } from "drizzle-orm";
import { providerKeys } from "@/lib/db/schema";
import { writeAudit } from "@/lib/pipeline/audit";
import type { SystemContext } from "@/lib/pipeline/context";
import { open, seal, storedKeyBinding } from "@/lib/pipeline/keys/key-encryption";

const BATCH = 200;

/**
 * Re-encrypts every provider key not yet under the current key-encryption key, in small transactions
 * (rows locked with SKIP LOCKED, so the app keeps reading and writing keys meanwhile). Idempotent: run
 * it again after a failure. Returns how many keys moved and how many could not be decrypted.
 */
export async function rotateKeys({ ctx }: { ctx: SystemContext }) {
  const target = ctx.keyring.current.version;
  let rotated = 0;
  const failedIds = new Set<string>();
  for (;;) {
    const batch = await ctx.db.withSystem(async (tx) => {
      const rows = await tx
        .select()
        .from(providerKeys)
        .where(
          failedIds.size > 0
            ? and(ne(providerKeys.keyVersion, target), notInArray(providerKeys.id, [...failedIds]))
            : ne(providerKeys.keyVersion, target),
        )
        .limit(BATCH)
        .for("update", { skipLocked: true });
      const perTenant = new Map<string, number>();
      for (const row of rows) {
        const binding = storedKeyBinding(row);
        let plaintext: string;
        try {
          plaintext = open(ctx.keyring, row, binding);
        } catch {
          failedIds.add(row.id);
          continue;
        }
        await tx
          .update(providerKeys)
          .set(seal(ctx.keyring, plaintext, binding))
          .where(eq(providerKeys.id, row.id));
        perTenant.set(row.tenantId, (perTenant.get(row.tenantId) ?? 0) + 1);
      }
      for (const [tenantId, count] of perTenant) {
        await writeAudit(tx, {
          tenantId,
          actor: ctx.actor,
          action: "key.rotate",
          targetType: "provider_key",
          details: { count, keyVersion: target },
        });
      }
      return { seen: rows.length, moved: [...perTenant.values()].reduce((a, b) => a + b, 0) };
    });
    rotated += batch.moved;
    if (batch.seen === 0) break;
  }
  const [remaining] = await ctx.db.withSystem((tx) =>
    tx
      .select({ n: sql<number>`count(*)::int` })
      .from(providerKeys)
      .where(ne(providerKeys.keyVersion, target)),
  );
  return { rotated, failed: failedIds.size, remaining: remaining?.n ?? 0, keyVersion: target };
}
