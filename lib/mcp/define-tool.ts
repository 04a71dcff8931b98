/**
 * MCP: one tool of the table (lib/tools/table.ts) as a server offers it, whatever the protocol revision: its
 * config, annotations policy, error mapping and progress reporting (per provider, plus a heartbeat when it is
 * slow). The revisions' adapters (revision-2025.ts, revision-2026-07-28.ts) only register what this offers.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { Scope, TenantContext } from "@/lib/pipeline/context";
import { UNTRUSTED_NOTE } from "@/lib/tools/format";
import {
  callTool,
  formatOutput,
  isSlowCall,
  startsJob,
  type Tool,
  type ToolCall,
  type ToolOutput,
} from "@/lib/tools/tool";
import type { OfferedTool, ToolConfig } from "./offered";
import { withDefaults } from "./profile-defaults";
import { reportJobProgress, withProgress } from "./progress";
import { registerTool } from "./revision-2025";
import { toolErrorFrom } from "./tool-errors";

/** What answers a call: the tenant's verb, or (the stdio bridge's local mode) the operator's engine. */
type ToolRunner<I extends z.ZodObject, O extends z.ZodObject> = (
  input: z.output<I>,
  call: ToolCall,
) => Promise<ToolOutput<O>>;

export interface McpTool<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  scope: Scope | null;
  /** The tool's jobs (`OfferedTool.startJob`), whose status and results tasks serve. */
  jobs?: Pick<NonNullable<Tool["background"]>, "read" | "cancel" | "list">;
  /**
   * The tool answered by its verb, as the tenant of `ctx`; its input schema carries the defaults of the
   * connection's profile, so the schema's parse (the SDK's) fills them where the call gives none.
   */
  offerFor(ctx: TenantContext): OfferedTool;
  /** The config a connection with these defaults for the tool lists (profile-defaults.ts). */
  configFor(defaults: Record<string, unknown> | undefined): ToolConfig;
  /** Registers the same tool (name, description, schemas, annotations, text) answered by `run`, on a v1 server. */
  registerRunner(server: McpServer, run: ToolRunner<I, O>, format?: (output: ToolOutput<O>) => string): void;
  /** A response as the call's result: its text for the model, and the structured content. */
  result(output: z.output<O>): CallToolResult;
}

export function mcpTool<I extends z.ZodObject, O extends z.ZodObject>(
  spec: Tool<string, I, O>,
): McpTool<I, O> {
  /**
   * The readable text, then (for tools that bring back web content) the untrusted-content note as a block of
   * its own. More than one block also keeps @langchain/mcp-adapters 1.x from pasting structuredContent into
   * the model's copy of the text (docs/decisions.md, "What MCP clients show the model").
   */
  function textContent(text: string): CallToolResult["content"] {
    const note = spec.openWorld ? [{ type: "text" as const, text: UNTRUSTED_NOTE }] : [];
    return [{ type: "text", text }, ...note];
  }
  const config: ToolConfig = {
    title: spec.title,
    description: spec.description,
    inputSchema: spec.inputSchema,
    // No outputSchema: the response schemas were most of the tool list's bytes, paid for in every model's
    // context; structuredContent is sent all the same (docs/decisions.md, "A small tool list").
    // Every tool only reads: searching, fetching and answering change nothing the caller owns.
    annotations: { readOnlyHint: true, openWorldHint: spec.openWorld },
  };
  function answeredBy(
    run: ToolRunner<I, O>,
    format = (output: ToolOutput<O>) => formatOutput(spec, output),
    offeredConfig = config,
  ): OfferedTool {
    return {
      name: spec.name,
      config: offeredConfig,
      async call(args, extra) {
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
      },
    };
  }
  const background = spec.background;
  return {
    name: spec.name,
    scope: spec.scope,
    ...(background && { jobs: background }),
    offerFor(ctx) {
      // The SDK parsed the input with the verb's schema; the verb parses it again (its defaults hold).
      const offered = answeredBy(
        async (input, call) => (await callTool(spec, ctx, input as z.input<I>, call)).response,
        undefined,
        withDefaults(config, ctx.profile?.defaults?.[spec.name]),
      );
      if (!background) return offered;
      return {
        ...offered,
        startsJob: (args) => startsJob(spec, args),
        async startJob(args, extra) {
          if (!startsJob(spec, args)) throw new Error("this call starts no job: answer it with call()");
          const job = await background.start(ctx, args as z.input<I>);
          reportJobProgress(() => background.read(ctx, { id: job.id }), extra);
          return job;
        },
      };
    },
    configFor: (defaults) => withDefaults(config, defaults),
    registerRunner: (server, run, format) => registerTool(server, answeredBy(run, format)),
    result: (output) => ({ content: textContent(spec.format(output)), structuredContent: output }),
  };
}
