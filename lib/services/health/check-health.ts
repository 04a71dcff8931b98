import type { Database } from "@/lib/db";
import type { Kv } from "@/lib/kv";
import { searchProviders } from "@/lib/providers/search";
import { operatorProviderIds } from "@/lib/services/providers/operator-providers";

const CHECK_TIMEOUT_MS = 2_000;
type PartStatus = "ok" | "error";

async function check(probe: () => Promise<unknown>): Promise<PartStatus> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("timeout")), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([probe(), timeout]);
    return "ok";
  } catch {
    return "error";
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Liveness of each part. The database is required (status "error" → 503); the KV store only degrades
 * caching and rate limits; providers are "ok" while at least one search provider is usable without a
 * tenant key (the keyless ones always are).
 */
export async function checkHealth({
  ctx,
  input,
}: {
  ctx: { db: () => Promise<Database>; kv: () => Kv };
  input: { version: string };
}) {
  // Opening the database (which may start the embedded server) is not timed; its answer is.
  const database = await ctx.db().catch(() => null);
  const [db, kv] = await Promise.all([
    database ? check(() => database.ping()) : Promise.resolve<PartStatus>("error"),
    check(() => ctx.kv().ping()),
  ]);
  const available = operatorProviderIds(searchProviders);
  const providers: PartStatus = available.length > 0 ? "ok" : "error";
  const status = db === "error" ? "error" : kv === "ok" && providers === "ok" ? "ok" : "degraded";
  return { status, version: input.version, db, kv, providers, providers_available: available };
}
