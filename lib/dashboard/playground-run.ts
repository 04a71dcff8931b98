import type { ProviderSpan } from "@/lib/engine/shared/types";
import type { TenantContext } from "@/lib/pipeline/context";
import type { OnProgress } from "@/lib/pipeline/provider-attempts";
import { TOOLS, tools } from "@/lib/tools/table";
import type { PlaygroundResult, PlaygroundTool } from "./playground-events";

/** The tools the playground offers, in the table's order. */
export const PLAYGROUND_TOOLS = TOOLS.filter((tool) => tool.playground !== false);

/** The names the run endpoint accepts. */
export const PLAYGROUND_TOOL_NAMES = PLAYGROUND_TOOLS.map((tool) => tool.name);

/**
 * Runs one playground call through the tool's entry in the table (the verb MCP and REST run, with the
 * session's context), reporting each provider as it finishes, and answers in the REST response shape with
 * the call's spans.
 */
export async function runPlaygroundTool(
  ctx: TenantContext,
  name: PlaygroundTool,
  input: Record<string, unknown>,
  /** Each provider as it finishes; `signal` aborts the call when the browser goes away. */
  { onProgress, signal }: { onProgress: OnProgress; signal: AbortSignal },
): Promise<PlaygroundResult & { spans: ProviderSpan[] }> {
  const tool = PLAYGROUND_TOOLS.find((entry) => entry.name === name);
  if (!tool) throw new Error(`not a playground tool: ${name}`);
  // The verb validates `input` with its own schema, exactly as the REST routes pass their bodies on.
  const { response, spans } = await tool.run(ctx, input, { onProgress, signal });
  // The entry named `name` answers in its own output schema.
  return { tool: name, response, spans } as PlaygroundResult & { spans: ProviderSpan[] };
}

/** The tools whose estimate the playground shows beside its buttons: its tools, and research's Start. */
const ESTIMATED_TOOLS = [...PLAYGROUND_TOOLS, tools.research];

/** The names the estimate endpoint accepts. */
export const ESTIMATED_TOOL_NAMES = ESTIMATED_TOOLS.map((tool) => tool.name);

/** What a playground call would ask and the most it could cost, from the tool's own estimate: nothing is called. */
export function estimatePlaygroundTool(
  ctx: TenantContext,
  name: PlaygroundTool,
  input: Record<string, unknown>,
) {
  const tool = ESTIMATED_TOOLS.find((entry) => entry.name === name);
  if (!tool) throw new Error(`not an estimated playground tool: ${name}`);
  return tool.estimate(ctx, input);
}
