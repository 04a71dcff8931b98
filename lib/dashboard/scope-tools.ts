import type { Scope } from "@/lib/pipeline/context";
import { TOOLS, type ToolName } from "@/lib/tools/table";

const toolScopes = new Set(TOOLS.flatMap((tool) => (tool.scope === null ? [] : [tool.scope])));

/**
 * Per scope, the tools of the table it allows, in the table's order (the token form's hints); scopes that
 * allow no tool of their own (mcp, admin) are absent.
 */
export const TOOLS_BY_SCOPE = Object.fromEntries(
  [...toolScopes].map((scope) => [
    scope,
    TOOLS.filter((tool) => tool.scope === scope).map((tool) => tool.name),
  ]),
) as Partial<Record<Scope, ToolName[]>>;
