/**
 * The tools of the table (lib/tools/table.ts) as CLI commands, run through the table's `run` as the tenant
 * of --tenant or, without it, as the operator (callerOf). Every tool has `tool <name>`: a flag per simple
 * top-level input field (`max_results` → `--max-results N`; lists comma-separated; booleans bare) and
 * `--input JSON` for the whole input or fields without a flag; the flags win. The everyday tools also have
 * a short command with flags of their own (`search "q" --max N`). Both print the tool's text (as MCP
 * returns it), or with --json its response (as REST returns it).
 */
import { z } from "zod";
import { ServiceError } from "@/lib/pipeline/errors";
import { untraced } from "@/lib/pipeline/operator-context";
import { TOOLS } from "@/lib/tools/table";
import { callTool, formatOutput, type Tool } from "@/lib/tools/tool";
import { type CliCommand, callerOf, type Flags, list, number } from "./command";

type FieldKind = "text" | "number" | "boolean" | "list";

/** Flags every tool command has; an input field of the same name is reachable through --input only. */
const OWN_FLAGS = ["tenant", "input", "json"];

interface JsonSchemaField {
  type?: unknown;
  enum?: unknown[];
  items?: { type?: unknown };
}

interface FlagField {
  field: string;
  kind: FieldKind;
  /** What the usage line shows after the flag. */
  placeholder: string;
}

function kindOf(field: JsonSchemaField): FieldKind | undefined {
  if (field.type === "string") return "text";
  if (field.type === "integer" || field.type === "number") return "number";
  if (field.type === "boolean") return "boolean";
  if (field.type === "array" && field.items?.type === "string") return "list";
  return undefined;
}

const PLACEHOLDER: Record<FieldKind, string> = { text: " S", number: " N", boolean: "", list: " a,b" };

/** The input fields a flag can carry, by flag name. */
function flagFields(tool: Tool): Map<string, FlagField> {
  const { properties = {} } = z.toJSONSchema(tool.inputSchema, { io: "input", unrepresentable: "any" }) as {
    properties?: Record<string, JsonSchemaField>;
  };
  const fields = new Map<string, FlagField>();
  for (const [field, schema] of Object.entries(properties)) {
    const kind = kindOf(schema);
    const flag = field.replaceAll("_", "-");
    if (!kind || OWN_FLAGS.includes(flag)) continue;
    const placeholder = schema.enum ? ` ${schema.enum.join("|")}` : PLACEHOLDER[kind];
    fields.set(flag, { field, kind, placeholder });
  }
  return fields;
}

function jsonInput(flags: Flags): Record<string, unknown> {
  if (flags.input === undefined) return {};
  let input: unknown;
  try {
    input = JSON.parse(flags.input);
  } catch {
    input = null;
  }
  if (typeof input !== "object" || input === null || Array.isArray(input))
    throw new ServiceError("invalid_input", "--input must be a JSON object");
  return input as Record<string, unknown>;
}

function flagValue(flags: Flags, flag: string, kind: FieldKind): unknown {
  switch (kind) {
    case "number":
      return number(flags, flag);
    case "boolean":
      return true;
    case "list":
      return list(flags[flag]);
    case "text":
      return flags[flag];
  }
}

/** What a command prints of a response: its text, or with --json the response. The operator's calls leave no trace. */
export function printed<R extends object>(
  flags: Flags,
  response: R,
  format: (response: R) => string,
): string {
  const shown = flags.tenant ? response : untraced(response);
  return flags.json === undefined ? format(shown) : JSON.stringify(shown, null, 2);
}

/** Runs `tool` through the table as the caller of `flags` (`--estimate`: its estimate, calling nothing). */
async function runTool(tool: Tool, flags: Flags, input: Record<string, unknown>): Promise<string> {
  const { response } = await callTool(tool, await callerOf(flags), input, {});
  return printed(flags, response, (output) => formatOutput(tool, output));
}

function toolCommand(tool: Tool): CliCommand {
  const fields = flagFields(tool);
  const options = [...fields].map(([flag, { placeholder }]) => `[--${flag}${placeholder}]`);
  return {
    usage: [`tool ${tool.name} [--tenant ID]`, ...options, "[--input JSON] [--json]"].join(" "),
    flags: [...OWN_FLAGS, ...fields.keys()],
    booleans: ["json", ...[...fields].filter(([, { kind }]) => kind === "boolean").map(([flag]) => flag)],
    async run(flags) {
      const input = jsonInput(flags);
      for (const [flag, { field, kind }] of fields) {
        if (flags[flag] !== undefined) input[field] = flagValue(flags, flag, kind);
      }
      return runTool(tool, flags, input);
    },
  };
}

/** `tool <name>` for every tool of the table. */
export const TOOL_COMMANDS: Record<string, CliCommand> = Object.fromEntries(
  TOOLS.map((tool) => [`tool ${tool.name}`, toolCommand(tool)]),
);

/** A tool under a short name, with a positional argument and flags of its own (`search "q" --max N`). */
export function shortToolCommand(
  tool: Tool,
  spec: {
    usage: string;
    flags: string[];
    booleans?: string[];
    input(flags: Flags, positionals: string[]): Record<string, unknown>;
  },
): CliCommand {
  return {
    usage: `${spec.usage} [--tenant ID] [--no-cache] [--json]`,
    flags: [...spec.flags, "tenant", "no-cache", "json"],
    booleans: [...(spec.booleans ?? []), "no-cache", "json"],
    positionals: true,
    run: (flags, positionals) =>
      runTool(tool, flags, { ...spec.input(flags, positionals), no_cache: flags["no-cache"] !== undefined }),
  };
}
