import { DatabaseNotMigratedError } from "@/lib/db";

/** How long a health or readiness check waits for one dependency before calling it down. */
const PROBE_TIMEOUT_MS = 2_000;

export type PartStatus = "ok" | "error";

/**
 * `probe()`'s answer, or its failure: an error it threw, or `timeout` when it has not answered within
 * `timeoutMs` (a hung dependency is down, not a check that never ends). The probe itself is not cancelled.
 */
export async function bounded<T>(
  probe: () => Promise<T>,
  timeoutMs: number = PROBE_TIMEOUT_MS,
): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("timeout")), timeoutMs);
  });
  try {
    return { ok: true, value: await Promise.race([probe(), timeout]) };
  } catch (error) {
    return { ok: false, error };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Why the database cannot serve, in words for an unauthenticated caller: no host, name or driver error
 * (the server's log has those).
 */
export function databaseProblem(error: unknown): string {
  return error instanceof DatabaseNotMigratedError
    ? `the database is not migrated (missing ${error.pending.join(", ")}): run \`npm run db:migrate\``
    : "the database does not answer";
}
