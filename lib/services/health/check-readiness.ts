import type { Database } from "@/lib/db";
import type { Kv } from "@/lib/kv";
import type { Keyring } from "@/lib/pipeline/capabilities";
import { keyringVerdict } from "@/lib/pipeline/keys/key-check";
import { bounded, databaseProblem, type PartStatus } from "./probe";

/**
 * Whether this instance can serve requests now, for load balancers and orchestrators (GET /api/ready):
 * the database answers a query (opening it included), the KV store a round trip, and the key-encryption
 * keys read what is stored (keyringVerdict, reached once per process). Each dependency gets PROBE_TIMEOUT_MS,
 * so a hung one is "error" rather than a check that never answers. An in-memory KV store is ready: it
 * serves, only per instance (health says so). `reason` names every failed part, in words that reveal no
 * host, name or driver error.
 */
export async function checkReadiness({
  ctx,
}: {
  ctx: { db: () => Promise<Database>; kv: () => Kv; keyring: () => Keyring };
}) {
  const [database, kv] = await Promise.all([
    bounded(async () => {
      const opened = await ctx.db();
      await opened.ping();
      return opened;
    }),
    bounded(() => ctx.kv().ping()),
  ]);
  // Only a database that answers can say whether the keys read it.
  const verdict = database.ok ? await bounded(() => keyringVerdict(database.value, ctx.keyring())) : null;
  const secretKey = !verdict?.ok ? "unknown" : verdict.value.ok ? "ok" : "error";
  const problems = [
    !database.ok && databaseProblem(database.error),
    !kv.ok && "the KV store does not answer",
    verdict && !verdict.ok && "the key-encryption keys could not be checked against the database yet",
    verdict?.ok && !verdict.value.ok && verdict.value.problem,
  ].filter((problem): problem is string => typeof problem === "string");
  const part = (ok: boolean): PartStatus => (ok ? "ok" : "error");
  return {
    status: part(problems.length === 0),
    db: part(database.ok),
    kv: part(kv.ok),
    secret_key: secretKey,
    ...(problems.length > 0 ? { reason: problems.join("; ") } : {}),
  } as const;
}
