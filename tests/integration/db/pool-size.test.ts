/**
 * DATABASE_POOL_MAX (#29: "the database pool size is fixed"): the process-wide database opens at most that
 * many connections, however many transactions wait. Counted by PostgreSQL itself (pg_stat_activity) while
 * more transactions than that are held open at once; needs PostgreSQL (DATABASE_URL), as on CI.
 */
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryRows } from "@/lib/db";
import { withRawClient } from "@/tests/support/database";
import { inProcessApp } from "@/tests/support/route-handlers";

const adminUrl = process.env.DATABASE_URL?.trim();
const app = inProcessApp("pool-size", { database: "fresh" });

describe.runIf(adminUrl)("DATABASE_POOL_MAX", () => {
  beforeAll(() => app.start({ DATABASE_POOL_MAX: "2" }));
  afterAll(() => app.stop());

  it("caps the connections the process opens", async () => {
    const { getDatabase } = await import("@/lib/db");
    const db = await getDatabase();
    const [{ name } = { name: "" }] = await db.withSystem((tx) =>
      queryRows<{ name: string }>(tx, sql`select current_database() as name`),
    );
    // Six transactions at once, each holding its connection until released.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered = 0;
    let bothIn: () => void = () => {};
    const twoEntered = new Promise<void>((resolve) => {
      bothIn = resolve;
    });
    const transactions = Array.from({ length: 6 }, () =>
      db.withSystem(async () => {
        entered += 1;
        if (entered === 2) bothIn();
        await held;
      }),
    );
    const connections = async () =>
      withRawClient(adminUrl as string, async (client) => {
        const result = await client.query(
          "select count(*)::int as n from pg_stat_activity where datname = $1 and state = 'idle in transaction'",
          [name],
        );
        return result.rows[0].n as number;
      });
    try {
      await twoEntered;
      // The connections holding a transaction open (the tests' own, idle, are not): without the cap the other
      // four would have theirs by now.
      expect(await connections()).toBe(2);
      expect(entered).toBe(2);
    } finally {
      release();
      await Promise.all(transactions);
    }
  });
});
