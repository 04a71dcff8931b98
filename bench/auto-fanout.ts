/**
 * The auto-fanout scenario on its own, without the bench's server: `npx tsx bench/auto-fanout.ts`
 * [--corpus=FILE] [--queries=N] [--seed=N] [--label=NAME]. On a fresh embedded database, or with
 * DATABASE_URL (and REDIS_URL) on a new PostgreSQL database next to it and Redis. Prints the row and writes
 * bench/results/<date>-<label>.json like `npm run bench -- --only=auto-fanout`.
 */
import os from "node:os";
import { databaseTargets } from "@/tests/support/database";
import { autoFanout } from "./scenarios/auto-fanout";
import { stringFlag } from "./support/flags";
import { corpusOfFlags } from "./support/relevance-corpus";
import { machine, printTable, writeResults } from "./support/report";

const corpus = corpusOfFlags();
const target = databaseTargets().at(-1);
if (!target) throw new Error("no database target");
const loadAtStart = os.loadavg()[0] ?? 0;
const database = await target.create();
try {
  const result = await autoFanout(database.db, corpus);
  const about = machine(loadAtStart);
  printTable([result], about);
  const label = stringFlag("label") ?? `auto-fanout-${target.name === "pglite" ? "embedded" : "pg"}`;
  console.log(
    `wrote ${writeResults([result], about, { corpus: corpus.name, database: target.name }, label)}`,
  );
} finally {
  await database.cleanup();
}
process.exit(0);
