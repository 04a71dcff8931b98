/**
 * Connection profiles, checked when saved (a token's on POST/PATCH /api/v1/tokens, a connected app's on the
 * Connect page): `tools` names tools of the table within the connection's scopes, and `defaults` per listed
 * tool only arguments of its input schema, each a value that schema accepts, never the call's subject (a
 * required argument) or `estimate`. A default the tool would refuse is refused here, not at call time.
 * Enforced on every call by connection.ts.
 */
import type { z } from "zod";
import type { ConnectionProfile, ProfileRules, Scope } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { parseInput } from "@/lib/pipeline/validate";
import { connectionProfileInput } from "@/lib/services/tokens/connection-profile";
import { connectionAllows } from "./connection";
import { TOOLS } from "./table";
import type { Tool } from "./tool";

/** A stored profile's JSON at most (it travels in every cached token verdict). */
const MAX_PROFILE_BYTES = 8_192;
/** Names, quoted and cut, for an error message (a hostile profile may send thousands of long ones). */
const listed = (names: readonly string[]) =>
  names
    .slice(0, 10)
    .map((value) => `'${value.slice(0, 40)}'`)
    .join(", ") + (names.length > 10 ? ", …" : "");

const NO_DEFAULT: ReadonlySet<string> = new Set(["estimate", "query", "queries", "url", "urls", "question"]);

/** What is wrong with one tool's defaults, as "tool.argument: reason". */
function defaultProblems(tool: Tool, defaults: Record<string, unknown>): string[] {
  const shape = tool.inputSchema.shape as Record<string, z.ZodType>;
  return Object.entries(defaults).flatMap(([argument, value]) => {
    const field = Object.hasOwn(shape, argument) ? shape[argument] : undefined;
    const where = `${tool.name}.${argument.slice(0, 40)}`;
    if (!field) return [`${where}: not an argument of ${tool.name}`];
    // What the call is about (the query, the URL: required, or one of a required pair such as query/queries)
    // is the caller's to give; `estimate` would answer every call with an estimate.
    if (NO_DEFAULT.has(argument) || !field.safeParse(undefined).success)
      return [`${where}: cannot have a default`];
    const parsed = field.safeParse(value);
    return parsed.success ? [] : [`${where}: ${parsed.error.issues[0]?.message ?? "invalid"}`];
  });
}

function refuse(message: string, problems: string[]): never {
  throw new ServiceError("invalid_input", `${message}: ${problems.join("; ")}`, { problems });
}

/**
 * A profile as stored for a connection holding `scopes`, or null for none (no tools named, no defaults);
 * invalid_input naming every tool or argument it refuses.
 */
export const profileRules: ProfileRules = (raw, scopes: readonly Scope[]): ConnectionProfile | null => {
  if (raw === null || raw === undefined) return null;
  if (JSON.stringify(raw).length > MAX_PROFILE_BYTES)
    throw new ServiceError("payload_too_large", `a profile holds at most ${MAX_PROFILE_BYTES} bytes of JSON`);
  const parsed = parseInput(connectionProfileInput, raw);
  if (!parsed) return null;
  const { tools, defaults = {} } = parsed;
  const byName = new Map(TOOLS.map((tool) => [tool.name as string, tool]));
  const names = tools && [...new Set(tools)];
  const unknown = (names ?? []).filter((tool) => !byName.has(tool));
  if (unknown.length > 0)
    refuse("unknown tools", [`${listed(unknown)} (tools: ${[...byName.keys()].join(", ")})`]);
  const connection = { scopes, profile: names ? { tools: names } : undefined };
  const outOfScope = (names ?? []).filter((tool) => !connectionAllows({ scopes }, byName.get(tool) as Tool));
  if (outOfScope.length > 0) {
    refuse(
      "tools this connection's scopes do not allow",
      outOfScope.map((tool) => `${tool} (needs the '${byName.get(tool)?.scope}' scope)`),
    );
  }
  const problems = Object.entries(defaults).flatMap(([toolName, values]) => {
    const tool = byName.get(toolName);
    if (!tool) return [`${listed([toolName])}: not a tool`];
    if (!connectionAllows(connection, tool)) return [`${toolName}: not a tool this profile lists`];
    return defaultProblems(tool, values);
  });
  if (problems.length > 0) refuse("defaults the tools would refuse", problems);
  const kept = Object.entries(defaults).filter(([, values]) => Object.keys(values).length > 0);
  if (!names && kept.length === 0) return null;
  return { ...(names && { tools: names }), ...(kept.length > 0 && { defaults: Object.fromEntries(kept) }) };
};
