/**
 * MCP: the tools of the table (lib/tools/table.ts). Each calls the same service verb as REST and the
 * dashboard, with the verb's own strict input schema; only the tools a token's scopes allow are
 * registered (and so listed).
 */
import type { Scope } from "@/lib/services/context";
import { TOOLS as TABLE } from "@/lib/tools/table";
import { type McpTool, mcpTool } from "./define-tool";

export const TOOLS: readonly McpTool[] = TABLE.map(mcpTool);

/** The tools a token may see and call: those of its scopes, and budget_status for every token. */
export function toolsForScopes(scopes: readonly Scope[]): McpTool[] {
  return TOOLS.filter((tool) => tool.scope === null || scopes.includes(tool.scope));
}
