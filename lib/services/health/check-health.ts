import type { Database } from "@/lib/db";
import type { Kv } from "@/lib/kv";
import { operatorProviderIds } from "@/lib/pipeline/providers/operator-providers";
import { searchProviders } from "@/lib/providers/search";
import { bounded, databaseProblem, type PartStatus } from "./probe";

const check = async (probe: () => Promise<unknown>): Promise<PartStatus> =>
  (await bounded(probe)).ok ? "ok" : "error";

/**
 * Liveness, and a report for monitoring of each part (whether to send this instance traffic is
 * readiness: check-readiness.ts). The database is required (status "error" → 503); the KV store only degrades
 * caching and rate limits, and so does an in-memory one next to a shared database (each instance then
 * counts on its own); providers are "ok" while at least one search provider is usable without a tenant
 * key (the keyless ones always are). `reason` says what is wrong whenever status is not "ok".
 */
export async function checkHealth({
  ctx,
  input,
}: {
  ctx: { db: () => Promise<Database>; kv: () => Kv };
  /** `sharedDatabase`: DATABASE_URL is set, so other instances may be running beside this one. */
  input: { version: string; sharedDatabase: boolean };
}) {
  // Opening the database (which may start the embedded server) is not timed; its answer is.
  let openError: unknown;
  const database = await ctx.db().catch((error: unknown) => {
    openError = error;
    return null;
  });
  const kvStore = ctx.kv();
  const [db, kv] = await Promise.all([
    database ? check(() => database.ping()) : Promise.resolve<PartStatus>("error"),
    check(() => kvStore.ping()),
  ]);
  const available = operatorProviderIds(searchProviders);
  const providers: PartStatus = available.length > 0 ? "ok" : "error";
  const problems = [
    db === "error" && databaseProblem(openError),
    kv === "error" && "the KV store does not answer: caching and rate limits are degraded",
    kv === "ok" &&
      input.sharedDatabase &&
      kvStore.name === "memory" &&
      "the KV store is in memory next to a shared database: each instance caches and rate-limits on its own",
    providers === "error" && "no search provider is usable without a workspace key",
  ].filter((problem): problem is string => typeof problem === "string");
  const status = db === "error" ? "error" : problems.length > 0 ? "degraded" : "ok";
  return {
    status,
    version: input.version,
    db,
    kv,
    providers,
    providers_available: available,
    ...(problems.length > 0 ? { reason: problems.join("; ") } : {}),
  };
}
