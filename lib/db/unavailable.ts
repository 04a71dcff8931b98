/**
 * Whether a database error means the database cannot serve (not reachable, not answering, shutting down),
 * as opposed to a statement it refused. Drivers and drizzle wrap the socket's error, so the cause chain is
 * searched.
 */

/** Socket errors (node) and PostgreSQL's connection-exception and operator-intervention SQLSTATEs. */
const UNAVAILABLE_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now
  "08000", // connection_exception
  "08001", // sqlclient_unable_to_establish_sqlconnection
  "08003", // connection_does_not_exist
  "08004", // sqlserver_rejected_establishment_of_sqlconnection
  "08006", // connection_failure
]);

/** node-postgres reports a connect timeout and a dropped connection by message only. */
const UNAVAILABLE_MESSAGE =
  /timeout exceeded when trying to connect|connection terminated|connection timeout/i;

const MAX_CAUSES = 5;

export function isDatabaseUnavailable(error: unknown): boolean {
  let current = error;
  for (let depth = 0; depth < MAX_CAUSES && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && UNAVAILABLE_CODES.has(code)) return true;
    if (UNAVAILABLE_MESSAGE.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}
