/**
 * What one tool is, declared once in the table (table.ts) and read by every transport: MCP registers it,
 * REST routes and the OpenAPI document are derived from `rest`, the dashboard playground runs it and the
 * CLI builds a command from its input schema.
 */
import { z } from "zod";
import type { ProviderSpan } from "@/lib/engine/shared/types";
import type { Scope, TenantContext } from "@/lib/pipeline/context";
import { type CallEstimate, publicEstimate } from "@/lib/pipeline/estimate";
import type { OnProgress } from "@/lib/pipeline/provider-attempts";
import type { ProviderKind } from "@/lib/pipeline/providers/catalog";
import type { JobStatusView } from "@/lib/services/research/job-view";
import { assertProfileAllows, withConnectionDefaults } from "./connection";

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

/** What `estimate: true` answers instead of calling (lib/pipeline/estimate.ts): nothing is called or charged. */
export const estimateResponse = z.object({
  estimate: z.object({
    providers: z
      .array(z.string())
      .describe(
        "The providers the call would ask now, in order (keys paused or behind an open breaker left out)",
      ),
    max_cost_usd: z
      .number()
      .describe(
        "The most the call could be charged: every one of them asked and billed (a cached result costs 0)",
      ),
  }),
});
type EstimateResponse = z.infer<typeof estimateResponse>;

/**
 * The `estimate` input field every tool has; what it does is said once, in the MCP server's instructions and
 * the OpenAPI document, rather than in every tool's schema.
 */
const estimateFlag = z.boolean().optional();

/** A tool's input schema with the `estimate` field. */
const withEstimateFlag = <Input extends z.ZodObject>(schema: Input) =>
  schema.safeExtend({ estimate: estimateFlag });
type WithEstimate<Input extends z.ZodObject> = ReturnType<typeof withEstimateFlag<Input>>;

/** Whether a call (its input as sent) asks for an estimate: `true`, or `"true"` in a GET route's query string. */
function asksEstimate(input: unknown): boolean {
  const asked =
    typeof input === "object" && input !== null ? (input as { estimate?: unknown }).estimate : false;
  return asked === true || asked === "true";
}

/** A table entry as written: its call and its estimate, each on the verb's own input. */
export interface ToolSpec<Name extends string, Input extends z.ZodObject, Output extends z.ZodObject>
  extends Omit<Tool<Name, Input, Output>, "inputSchema" | "run" | "estimate"> {
  inputSchema: Input;
  run(ctx: TenantContext, input: z.input<Input>, call: ToolCall): Promise<ToolRun<z.output<Output>>>;
  /** Which providers the call would ask and the most it could cost, from the verbs' own selection. */
  estimate(ctx: TenantContext, input: z.input<Input>): Promise<CallEstimate>;
}

/** A tool's answer as the transports send it: its response, or an estimate when the call asked for one. */
export type ToolOutput<Output extends z.ZodObject> = z.output<Output> | EstimateResponse;

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
   * A job that outlives the request (research, a large crawl): REST answers 202 with the job from its own
   * route, MCP registers it as a task tool (lib/mcp/revision-2025.ts), and `run` waits for the job to finish.
   * `when` (as sent) says which calls are jobs; without it every call is (research).
   */
  background?: {
    start(ctx: TenantContext, input: z.input<Input>): Promise<JobStatusView>;
    when?(args: Record<string, unknown>): boolean;
    /** The job's status (another workspace's, or another kind's, is not_found); MCP tasks read it. */
    read(ctx: TenantContext, input: { id: string }): Promise<JobStatusView>;
    cancel(ctx: TenantContext, input: { id: string }): Promise<JobStatusView>;
    /** The caller's most recent jobs of the tool, newest first. */
    list(ctx: TenantContext, limit: number): Promise<JobStatusView[]>;
  };
  /** Left out of the dashboard playground (which shows calls with provider steps). */
  playground?: false;
  /** Runs the verb as the context's tenant and projects its result onto `outputSchema`. */
  run(ctx: TenantContext, input: z.input<Input>, call: ToolCall): Promise<ToolRun<z.output<Output>>>;
  /** What `estimate: true` answers: the providers the call would ask and the most it could cost. */
  estimate(ctx: TenantContext, input: z.input<Input>): Promise<EstimateResponse>;
  /** The response as text for a model (MCP's text content; the CLI's output). */
  format(output: z.output<Output>): string;
}

/** An estimate as text for a model. */
function formatEstimate({ estimate }: EstimateResponse): string {
  const asked = estimate.providers.join(", ") || "none";
  return `Estimate (nothing was called): at most $${estimate.max_cost_usd} — providers asked: ${asked}.`;
}

/**
 * Declares a table entry; the name stays a literal type so `tools.<name>` is typed. Every entry takes
 * `estimate: true` (its input schema gains the field), which the transports answer with `estimate`
 * (`callTool`). Its run, estimate and job start all go through the connection's profile (connection.ts):
 * refused when the profile leaves the tool out, its defaults under the call's own arguments.
 */
export function defineTool<const Name extends string, Input extends z.ZodObject, Output extends z.ZodObject>(
  spec: ToolSpec<Name, Input, Output>,
): Tool<Name, WithEstimate<Input>, Output> {
  /**
   * The verb's own input, with the connection's defaults: `estimate` is the table's field, never the verb's
   * (whose schema is strict).
   */
  const verbInput = (ctx: TenantContext, input: z.input<WithEstimate<Input>>) => {
    assertProfileAllows(ctx, spec.name);
    const { estimate: _estimate, ...rest } = withConnectionDefaults(ctx, spec.name, input);
    return rest as z.input<Input>;
  };
  const { background } = spec;
  return {
    ...spec,
    inputSchema: withEstimateFlag(spec.inputSchema),
    ...(background && {
      background: { ...background, start: (ctx, input) => background.start(ctx, verbInput(ctx, input)) },
    }),
    run: (ctx, input, call) => spec.run(ctx, verbInput(ctx, input), call),
    estimate: async (ctx, input) => publicEstimate(await spec.estimate(ctx, verbInput(ctx, input))),
  };
}

/** A call as every transport makes it: the tool's run, or with `estimate: true` its estimate (no spans). */
export async function callTool<Input extends z.ZodObject, Output extends z.ZodObject>(
  tool: Tool<string, Input, Output>,
  ctx: TenantContext,
  input: z.input<Input>,
  call: ToolCall,
): Promise<ToolRun<ToolOutput<Output>>> {
  if (asksEstimate(input)) return { response: await tool.estimate(ctx, input), spans: [] };
  return tool.run(ctx, input, call);
}

/** A tool's answer as text for a model: its format, or the estimate's. */
export function formatOutput<Output extends z.ZodObject>(
  tool: Pick<Tool<string, z.ZodObject, Output>, "format">,
  output: ToolOutput<Output>,
): string {
  return isEstimate(output) ? formatEstimate(output) : tool.format(output);
}

const isEstimate = (output: object): output is EstimateResponse => "estimate" in output;

/** A verb's public response and its own spans: the original call's belong to it when the cache answered. */
export function traced<Result extends { cache_hit: boolean; spans: readonly ProviderSpan[] }, Response>(
  project: (result: Result) => Response,
  result: Result,
): ToolRun<Response> {
  return { response: project(result), spans: result.cache_hit ? [] : [...result.spans] };
}

/** Whether a call with these arguments (as sent, before parsing) starts a job: none with estimate: true. */
export function startsJob(tool: Pick<Tool, "background">, args: unknown): boolean {
  if (!tool.background || asksEstimate(args)) return false;
  return (
    tool.background.when?.(
      typeof args === "object" && args !== null ? (args as Record<string, unknown>) : {},
    ) ?? true
  );
}

/** Whether a call with these arguments (as sent, before parsing) may take tens of seconds. */
export function isSlowCall(tool: Pick<Tool, "slow">, args: unknown): boolean {
  if (typeof tool.slow !== "function") return tool.slow === true;
  return tool.slow(typeof args === "object" && args !== null ? (args as Record<string, unknown>) : {});
}
