/**
 * Platform: what a server instance checks as it starts (instrumentation.ts, before anything else). A
 * configuration that cannot work stops the process with one line per problem (lib/deploy-check.ts); what
 * only degrades the service is logged once, and so is a database that is not migrated yet: requests fail
 * until `npm run db:migrate` has run, and the instance recovers without a restart (lib/db/index.ts).
 */
import { describeDatabase, getDatabase } from "@/lib/db";
import { DatabaseNotMigratedError } from "@/lib/db/migrations";
import { enforceDeployment, type StartCheck } from "@/lib/deploy-check";
import { log } from "@/lib/observability/logger";

/** `checks`: what the layers above the platform refuse to start with (the price overrides). */
export async function checkServerStart(checks: readonly StartCheck[] = []): Promise<void> {
  const warnings = enforceDeployment("server", checks);
  const logger = log();
  logger.info(`database: ${describeDatabase()}`);
  for (const warning of warnings) logger.warn(warning);
  await getDatabase().catch((error: unknown) => {
    // Other failures (a database still starting) are retried by the first request; this one needs a person.
    if (error instanceof DatabaseNotMigratedError) logger.error(error.message);
  });
  // The log is buffered for requests' sake; what an operator reads after a start must not wait in it.
  logger.flush();
}
