/**
 * Whether a database has every migration this build expects. The journal is compiled in, so the answer
 * needs no migrations folder at run time; drizzle's migrator records each applied migration's journal time
 * in drizzle.__drizzle_migrations and applies those newer than the latest one, which is what is compared.
 */
import journal from "@/drizzle/meta/_journal.json" with { type: "json" };

/** Migration tags (`0005_deferred_usage`) in the order they apply. */
export const MIGRATIONS: readonly { tag: string; when: number }[] = journal.entries;

/** The migrations a database whose latest applied one is from `latestApplied` (null: none) still needs. */
export function pendingAfter(latestApplied: number | null): string[] {
  return MIGRATIONS.filter(({ when }) => latestApplied === null || when > latestApplied).map(
    ({ tag }) => tag,
  );
}

/** Thrown instead of the first query's failure, which would only say `Failed query: select set_config('role', …)`. */
export class DatabaseNotMigratedError extends Error {
  constructor(
    /** Where the database is, without credentials (describeDatabase). */
    readonly database: string,
    readonly pending: readonly string[],
  ) {
    const state =
      pending.length === MIGRATIONS.length
        ? "has no migrations applied"
        : `lacks ${pending.length} of ${MIGRATIONS.length} migrations (${pending.join(", ")})`;
    super(
      `The database (${database}) ${state}: run \`npm run db:migrate\` with this configuration, then retry.`,
    );
    this.name = "DatabaseNotMigratedError";
  }
}
