/**
 * What one tool is, declared once in the table (table.ts) and read by every transport: MCP registers it,
 * REST routes and the OpenAPI document are derived from `rest`, the dashboard playground runs it and the
 * CLI builds a command from its input schema.
 */
import type { z } from "zod";
import type { ProviderSpan } from "@/lib/engine/shared/types";
import type { Scope, TenantContext } from "@/lib/pipeline/context";
import type { OnProgress } from "@/lib/pipeline/provider-attempts";
import type { ProviderKind } from "@/lib/pipeline/providers/catalog";

/**
 * How a call is being made: `signal` is the caller's cancellation (client disconnect, MCP cancellation;
 * the CLI has none); `onProgress` is set when the caller shows providers as they finish (MCP progress,
 * the playground).
 */
export interface ToolCall {
  signal?: AbortSignal;
  onProgress?: OnProgress;
}

/** A call's public response (the REST shape, MCP's structuredContent) and its own provider steps. */
export interface ToolRun<Response> {
  response: Response;
  /** As the call's trace stores them; empty for a cache hit (the original call had them) or no provider. */
  spans: ProviderSpan[];
}

interface RestRoute {
  /** `post` takes the input as the JSON body, `get` as the query string. */
  method: "get" | "post";
  /**
   * `/api/v1/<segment>`, served by the tools' dynamic route (app/api/v1/[tool]/route.ts) unless a route
   * file of that path exists; also the request metric's label.
   */
  path: `/api/v1/${string}`;
  summary: string;
  operationId: string;
}

export interface Tool<
  Name extends string = string,
  Input extends z.ZodObject = z.ZodObject,
  Output extends z.ZodObject = z.ZodObject,
> {
  name: Name;
  title: string;
  /** Written for a model: what it does, when to use it, what it costs and how long it takes. */
  description: string;
  /** The token scope that lists and allows this tool; null for every token. */
  scope: Scope | null;
  /** The verb's own strict schema (the verb parses its input with it again). */
  inputSchema: Input;
  /** The public response (lib/tools/responses.ts). */
  outputSchema: Output;
  /**
   * The kind of provider the tool runs on itself, choosing among them: provider status lists the tool for
   * every provider of that kind and the local bridge lists the operator's providers under it. One tool per
   * kind; null for tools that run none themselves: crawl reads with the direct fetcher only, research runs
   * web_search (whose providers its `providers` input names) and fetch, budget_status calls no provider.
   */
  providers: ProviderKind | null;
  /** Whether the tool reaches outside Searchmux (providers, the web). */
  openWorld: boolean;
  /**
   * Calls that can take tens of seconds: MCP sends progress heartbeats and streams the answer, whose SSE
   * keep-alive comments hold idle proxies open. A function decides it from one call's arguments (as sent).
   */
  slow?: true | ((args: Record<string, unknown>) => boolean);
  rest: RestRoute;
  /**
   * A job that outlives the request (research): REST answers 202 with the job from its own route, MCP
   * registers it as a task tool (lib/mcp/revision-2025.ts), and `run` waits for the job to finish.
   */
  background?: {
    start(ctx: TenantContext, input: z.input<Input>): Promise<z.output<Output> & { id: string }>;
  };
  /** Left out of the dashboard playground (which shows calls with provider steps). */
  playground?: false;
  /** Runs the verb as the context's tenant and projects its result onto `outputSchema`. */
  run(ctx: TenantContext, input: z.input<Input>, call: ToolCall): Promise<ToolRun<z.output<Output>>>;
  /** The response as text for a model (MCP's text content; the CLI's output). */
  format(output: z.output<Output>): string;
}

/** Declares a table entry; the name stays a literal type so `tools.<name>` is typed. */
export function defineTool<const Name extends string, Input extends z.ZodObject, Output extends z.ZodObject>(
  tool: Tool<Name, Input, Output>,
): Tool<Name, Input, Output> {
  return tool;
}

/** A verb's public response and its own spans: the original call's belong to it when the cache answered. */
export function traced<Result extends { cache_hit: boolean; spans: readonly ProviderSpan[] }, Response>(
  project: (result: Result) => Response,
  result: Result,
): ToolRun<Response> {
  return { response: project(result), spans: result.cache_hit ? [] : [...result.spans] };
}

/** Whether a call with these arguments (as sent, before parsing) may take tens of seconds. */
export function isSlowCall(tool: Pick<Tool, "slow">, args: unknown): boolean {
  if (typeof tool.slow !== "function") return tool.slow === true;
  return tool.slow(typeof args === "object" && args !== null ? (args as Record<string, unknown>) : {});
}
