/**
 * Operator CLI: `npm run smx -- <command>`. Works whether or not the app is running on the same data
 * (the embedded database is shared through its server process; Postgres is shared anyway).
 * Every command calls the same service verbs as MCP, REST and the dashboard: a tool's through the tool
 * table, as the tenant of --tenant or, without it, with the operator's own context (no database).
 */
import "./preflight";
import { parseArgs } from "node:util";
import { closeDatabase } from "@/lib/db";
import { flushPendingWrites } from "@/lib/pipeline/platform";
import type { CliCommand } from "./cli/command";
import { commands } from "./cli/commands";

function usage(): string {
  return ["usage: npm run smx -- <command>", ...Object.values(commands).map((c) => `  ${c.usage}`)].join(
    "\n",
  );
}

function findCommand(argv: string[]): [CliCommand, string[]] | undefined {
  for (const words of [2, 1]) {
    const command = commands[argv.slice(0, words).join(" ")];
    if (command) return [command, argv.slice(words)];
  }
  return undefined;
}

async function main(argv: string[]): Promise<number> {
  const found = findCommand(argv);
  if (!found) {
    console.error(usage());
    return 2;
  }
  const [command, rest] = found;
  const options = Object.fromEntries(
    command.flags.map((flag) => [
      flag,
      { type: command.booleans?.includes(flag) ? ("boolean" as const) : ("string" as const) },
    ]),
  );
  const { values, positionals } = parseArgs({
    args: rest,
    options,
    strict: true,
    allowPositionals: command.positionals ?? false,
  });
  const flags = Object.fromEntries(
    Object.entries(values).map(([key, value]) => [key, value === true ? "" : value]),
  );
  const output = await command.run(flags as Record<string, string | undefined>, positionals);
  if (typeof output === "string") {
    console.log(output);
    return 0;
  }
  if (output.stdout) console.log(output.stdout);
  if (output.stderr) console.error(output.stderr);
  return output.exitCode;
}

main(process.argv.slice(2))
  .catch((error: unknown) => {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  })
  .then(async (code) => {
    await flushPendingWrites();
    await closeDatabase();
    process.exit(code);
  });
