/**
 * MCP: how a tool of the table (lib/tools/table.ts) is registered on a per-request server. Every tool gets
 * the same annotations policy, the same error mapping and the same progress reporting (per provider, plus
 * a heartbeat when it is slow).
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { CallToolResult, ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { Scope, TenantContext } from "@/lib/services/context";
import { UNTRUSTED_NOTE } from "@/lib/tools/format";
import type { Tool, ToolCall } from "@/lib/tools/tool";
import { withProgress } from "./progress";
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
  /** Registers the same tool (name, description, schemas, annotations, text) answered by `run`. */
  registerRunner(server: McpServer, run: ToolRunner<I, O>, format?: (output: z.output<O>) => string): void;
}

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

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
        { heartbeat: spec.slow === true },
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
  function registerRunner(server: McpServer, run: ToolRunner<I, O>, format = spec.format): void {
    // Widened so the SDK's callback type does not depend on this function's type parameter.
    const inputSchema: z.ZodObject = spec.inputSchema;
    server.registerTool(
      spec.name,
      {
        title: spec.title,
        description: spec.description,
        inputSchema,
        outputSchema: spec.outputSchema,
        // Every tool only reads: searching, fetching and answering change nothing the caller owns.
        annotations: { title: spec.title, readOnlyHint: true, openWorldHint: spec.openWorld },
      },
      (input, extra) => call(run, format, input, extra),
    );
  }
  return {
    name: spec.name,
    scope: spec.scope,
    // The SDK parsed the input with the verb's schema; the verb parses it again (its defaults hold).
    register: (server, ctx) =>
      registerRunner(
        server,
        async (input, call) => (await spec.run(ctx, input as z.input<I>, call)).response,
      ),
    registerRunner,
  };
}
