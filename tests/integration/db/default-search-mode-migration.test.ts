/**
 * Migration 0012: workspaces that existed before it keep the fan-out they always had; workspaces created
 * after it start in auto mode. The migration's own statements run against a database put back to how it
 * was before them, with a workspace in it.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseTargets, type TestDatabase, withRawClient } from "@/tests/support/database";

const MIGRATION = path.join(import.meta.dirname, "../../../drizzle/0012_default_search_mode.sql");

describe.each(databaseTargets())("migration 0012 (default search mode) on $name", (target) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await target.create();
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it("leaves existing workspaces in fanout and starts new ones in auto", async () => {
    const statements = readFileSync(MIGRATION, "utf8").split("--> statement-breakpoint");
    const modes = await withRawClient(t.url, async (client) => {
      await client.query(`alter table tenants drop column default_search_mode`);
      await client.query(`drop type default_search_mode`);
      await client.query(`insert into tenants (name) values ('from before')`);
      for (const statement of statements) await client.query(statement);
      await client.query(`insert into tenants (name) values ('from after')`);
      const { rows } = await client.query<{ name: string; default_search_mode: string }>(
        `select name, default_search_mode from tenants where name like 'from %' order by name`,
      );
      return rows;
    });
    expect(modes).toEqual([
      { name: "from after", default_search_mode: "auto" },
      { name: "from before", default_search_mode: "fanout" },
    ]);
  });
});
