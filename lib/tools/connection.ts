/**
 * What a connection's profile (lib/tools/profile.ts) does to a call, whatever the transport: a tool outside
 * the profile is refused as a tool outside the scopes is, and the profile's defaults fill the arguments the
 * call leaves out. `defineTool` (tool.ts) applies both to every run, estimate and job start.
 */
import type { Scope, TenantContext } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";

type Connection = Pick<TenantContext, "scopes" | "profile">;

/** Whether the connection lists and may call the tool: its scopes allow it, and its profile names it. */
export function connectionAllows(ctx: Connection, tool: { name: string; scope: Scope | null }): boolean {
  const inScope = tool.scope === null || ctx.scopes.includes(tool.scope);
  return inScope && (ctx.profile?.tools?.includes(tool.name) ?? true);
}

/** Refuses a tool the connection's profile leaves out (403, as a missing scope is). */
export function assertProfileAllows(ctx: Connection, tool: string): void {
  const listed = ctx.profile?.tools;
  if (listed && !listed.includes(tool)) {
    throw new ServiceError("forbidden", `this connection's profile does not include the '${tool}' tool`, {
      tool,
    });
  }
}

/** The call's arguments over the profile's defaults for the tool: an argument the call gives always wins. */
export function withConnectionDefaults<Input>(ctx: Connection, tool: string, input: Input): Input {
  const defaults = ctx.profile?.defaults?.[tool];
  if (!defaults || typeof input !== "object" || input === null) return input;
  const merged: Record<string, unknown> = { ...defaults };
  for (const [name, value] of Object.entries(input)) if (value !== undefined) merged[name] = value;
  return merged as Input;
}
