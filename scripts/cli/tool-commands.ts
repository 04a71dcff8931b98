/**
 * One command per tool of the table (lib/tools/table.ts): `tool <name> --tenant ID`, a flag per simple
 * top-level input field (`max_results` → `--max-results N`; lists comma-separated; booleans bare) and
 * `--input JSON` for the whole input or fields without a flag; the flags win. Prints the tool's text
 * (as MCP returns it), or with --json its response (as REST returns it).
 */
import { z } from "zod";
import { ServiceError } from "@/lib/pipeline/errors";
import { TOOLS } from "@/lib/tools/table";
import type { Tool } from "@/lib/tools/tool";
import { asOperatorOf, type CliCommand, type Flags, list, number } from "./command";

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

function toolCommand(tool: Tool): CliCommand {
  const fields = flagFields(tool);
  const options = [...fields].map(([flag, { placeholder }]) => `[--${flag}${placeholder}]`);
  return {
    usage: [`tool ${tool.name} --tenant ID`, ...options, "[--input JSON] [--json]"].join(" "),
    flags: [...OWN_FLAGS, ...fields.keys()],
    booleans: ["json", ...[...fields].filter(([, { kind }]) => kind === "boolean").map(([flag]) => flag)],
    async run(flags) {
      const input = jsonInput(flags);
      for (const [flag, { field, kind }] of fields) {
        if (flags[flag] !== undefined) input[field] = flagValue(flags, flag, kind);
      }
      const { response } = await tool.run(await asOperatorOf(flags), input, {});
      return flags.json === undefined ? tool.format(response) : JSON.stringify(response, null, 2);
    },
  };
}

/** `tool <name>` for every tool of the table. */
export const TOOL_COMMANDS: Record<string, CliCommand> = Object.fromEntries(
  TOOLS.map((tool) => [`tool ${tool.name}`, toolCommand(tool)]),
);
