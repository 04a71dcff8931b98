import { toolListSize } from "@/lib/mcp/tool-list-size";
import { SCOPES, type Scope } from "@/lib/pipeline/context";
import { connectionAllows } from "@/lib/tools/connection";
import { TOOLS } from "@/lib/tools/table";

export type ToolSizes = ReadonlyArray<{ name: string; bytes: number }>;

let sizes: Promise<Record<string, number>> | undefined;

/**
 * The profile editor's choices for a connection with `scopes`: the tools they allow, each with the bytes of
 * its tools/list entry (measured once per process: the schemas do not change while it runs).
 */
export async function profileToolSizes(): Promise<(scopes: readonly string[]) => ToolSizes> {
  sizes ??= toolListSize({ scopes: SCOPES }).then((size) => size.perTool);
  const perTool = await sizes;
  return (scopes) =>
    TOOLS.filter((tool) => connectionAllows({ scopes: scopes as Scope[] }, tool)).map((tool) => ({
      name: tool.name,
      bytes: perTool[tool.name] ?? 0,
    }));
}
