/**
 * MCP: how a tool of the table (lib/tools/table.ts) is registered on a per-request server, of either SDK:
 * v1 (`@modelcontextprotocol/sdk`, protocol revisions up to 2025-11-25) or v2 (`@modelcontextprotocol/server`,
 * 2026-07-28). Every tool gets the same config, annotations policy, error mapping and progress reporting (per
 * provider, plus a heartbeat when it is slow) in both.
 */
import type { ToolTaskHandler } from "@modelcontextprotocol/sdk/experimental/tasks/interfaces.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { McpServer as ModernMcpServer, ServerContext } from "@modelcontextprotocol/server";
import type { z } from "zod";
import type { Scope, TenantContext } from "@/lib/pipeline/context";
import type { ResearchJobView } from "@/lib/services/research/job-view";
import { UNTRUSTED_NOTE } from "@/lib/tools/format";
import { isSlowCall, type Tool, type ToolCall } from "@/lib/tools/tool";
import { withCachedJsonSchema } from "./cached-json-schema";
import { type ProgressSink, reportJobProgress, withProgress } from "./progress";
import { taskOf } from "./research-tasks";
import { toolErrorFrom } from "./tool-errors";

/** What answers a call: the tenant's verb, or (the stdio bridge's local mode) the operator's engine. */
export type ToolRunner<I extends z.ZodObject, O extends z.ZodObject> = (
  input: z.output<I>,
  call: ToolCall,
) => Promise<z.output<O>>;

export interface McpTool<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  scope: Scope | null;
  /** Registers the tool for one tenant: its verb, as that tenant. */
  register(server: McpServer, ctx: TenantContext): void;
  /**
   * The same on a 2026-07-28 server. That revision has no tasks in its core, so a background tool is a plain
   * call there: it waits for the job, with progress heartbeats.
   */
  registerModern(server: ModernMcpServer, ctx: TenantContext): void;
  /** Registers the same tool (name, description, schemas, annotations, text) answered by `run`. */
  registerRunner(server: McpServer, run: ToolRunner<I, O>, format?: (output: z.output<O>) => string): void;
  /** A job that outlives the request (research): registered as a task tool over the server's task store. */
  background: boolean;
  /** A response as the call's result: its text for the model, and the structured content. */
  result(output: z.output<O>): CallToolResult;
}

/** What a call needs from the SDK's handler context: v1's `extra` as it is, v2's through `modernExtra`. */
type Extra = ProgressSink & { signal: AbortSignal };

function modernExtra({ mcpReq }: ServerContext): Extra {
  return { signal: mcpReq.signal, _meta: mcpReq._meta, sendNotification: (n) => mcpReq.notify(n) };
}

export function mcpTool<I extends z.ZodObject, O extends z.ZodObject>(
  spec: Tool<string, I, O>,
): McpTool<I, O> {
  async function call(
    run: ToolRunner<I, O>,
    format: (output: z.output<O>) => string,
    args: unknown,
    extra: Extra,
  ): Promise<CallToolResult> {
    try {
      // The SDK has parsed `args` with this very schema (defaults applied); it only hands them over untyped.
      const input = args as z.output<I>;
      const output = await withProgress(
        extra,
        spec.name,
        (onProgress) => run(input, { signal: extra.signal, onProgress }),
        { heartbeat: isSlowCall(spec, args) },
      );
      return { content: textContent(format(output)), structuredContent: output };
    } catch (error) {
      return toolErrorFrom(error, spec.name);
    }
  }
  /**
   * The readable text, then (for tools that bring back web content) the untrusted-content note as a block of
   * its own. More than one block also keeps @langchain/mcp-adapters 1.x from pasting structuredContent into
   * the model's copy of the text (docs/decisions.md, "What MCP clients show the model").
   */
  function textContent(text: string): CallToolResult["content"] {
    const note = spec.openWorld ? [{ type: "text" as const, text: UNTRUSTED_NOTE }] : [];
    return [{ type: "text", text }, ...note];
  }
  // Widened so the SDK's callback type does not depend on this function's type parameter.
  const config = {
    title: spec.title,
    description: spec.description,
    inputSchema: spec.inputSchema as z.ZodObject,
    outputSchema: spec.outputSchema,
    // Every tool only reads: searching, fetching and answering change nothing the caller owns.
    annotations: { title: spec.title, readOnlyHint: true, openWorldHint: spec.openWorld },
  };
  const modernConfig = {
    ...config,
    inputSchema: withCachedJsonSchema(config.inputSchema),
    outputSchema: withCachedJsonSchema(spec.outputSchema as z.ZodObject),
  };
  function registerRunner(server: McpServer, run: ToolRunner<I, O>, format = spec.format): void {
    server.registerTool(spec.name, config, (input, extra) => call(run, format, input, extra));
  }
  /**
   * A task tool: a task-augmented call answers at once with the job as a task (the client polls tasks/get
   * and collects tasks/result); a plain call waits for the job (the SDK polls the task store), and is sent
   * the job's progress when the client asked for it.
   */
  function registerTask(
    server: McpServer,
    ctx: TenantContext,
    start: NonNullable<typeof spec.background>["start"],
  ) {
    const handler: ToolTaskHandler<z.ZodObject> = {
      createTask: async (input, extra) => {
        const job = (await start(ctx, input as z.input<I>)) as unknown as ResearchJobView;
        reportJobProgress(ctx, job.id, extra);
        return { task: taskOf(job) };
      },
      getTask: (_input, extra) => extra.taskStore.getTask(extra.taskId),
      getTaskResult: async (_input, extra) =>
        (await extra.taskStore.getTaskResult(extra.taskId)) as CallToolResult,
    };
    server.experimental.tasks.registerToolTask(
      spec.name,
      { ...config, execution: { taskSupport: "optional" } },
      handler,
    );
  }
  // The SDK parsed the input with the verb's schema; the verb parses it again (its defaults hold).
  const verb =
    (ctx: TenantContext): ToolRunner<I, O> =>
    async (input, call) =>
      (await spec.run(ctx, input as z.input<I>, call)).response;
  const background = spec.background;
  return {
    name: spec.name,
    scope: spec.scope,
    background: background !== undefined,
    register: (server, ctx) =>
      background ? registerTask(server, ctx, background.start) : registerRunner(server, verb(ctx)),
    registerModern: (server, ctx) =>
      server.registerTool(spec.name, modernConfig, (input, context) =>
        call(verb(ctx), spec.format, input, modernExtra(context)),
      ),
    registerRunner,
    result: (output) => ({ content: textContent(spec.format(output)), structuredContent: output }),
  };
}
