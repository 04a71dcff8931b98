/** What a CLI command is, and the flag readers the commands share. */
import { type Actor, SCOPES } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { operatorContext } from "@/lib/pipeline/operator-context";
import { tenantContext } from "@/lib/pipeline/platform";

export type Flags = Record<string, string | undefined>;

/** What a command that can fail without throwing prints, and its exit code (a plain string: stdout, exit 0). */
interface CommandOutput {
  stdout: string;
  stderr?: string;
  exitCode: number;
}

export interface CliCommand {
  usage: string;
  flags: string[];
  /** Flags that take no value. */
  booleans?: string[];
  /** Positional arguments after the command words, e.g. the query of `search`. */
  positionals?: boolean;
  run(flags: Flags, positionals: string[]): Promise<string | CommandOutput>;
}

/** Who every command acts as. */
export const operator: Actor = { kind: "operator" };

export function required(flags: Flags, name: string): string {
  const value = flags[name];
  if (!value) throw new ServiceError("invalid_input", `--${name} is required`);
  return value;
}

export function number(flags: Flags, name: string): number | undefined {
  const value = flags[name];
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed)) throw new ServiceError("invalid_input", `--${name} must be a number`);
  return parsed;
}

/** The tenant of --tenant, acted on by the operator with every scope. */
export const asOperatorOf = (flags: Flags) =>
  tenantContext(operator, required(flags, "tenant"), SCOPES, "cli");

/**
 * Who a tool call runs as: the tenant of --tenant (its keys, budgets, cache and traces), else the operator
 * itself (its providers from the environment; no database, budgets or traces).
 */
export const callerOf = async (flags: Flags) =>
  flags.tenant ? asOperatorOf(flags) : operatorContext(process.env, "cli");
export const list = (value: string | undefined) => value?.split(",").map((part) => part.trim());
