/**
 * MCP: the tools of the table (lib/tools/table.ts). Each calls the same service verb as REST and the
 * dashboard, with the verb's own strict input schema; only the tools a connection may call (its token's
 * scopes, its profile, the URL's `?tools=`) are registered (and so listed). A call to one of the others is
 * refused before the server sees it (`refusedCall`): outside the scopes with a challenge the client can step
 * up from, outside the profile without one (no scope would help).
 */
import type { Scope, TenantContext } from "@/lib/pipeline/context";
import { connectionAllows } from "@/lib/tools/connection";
import { TOOLS as TABLE } from "@/lib/tools/table";
import { isSlowCall, startsJob } from "@/lib/tools/tool";
import { type McpTool, mcpTool } from "./define-tool";

export const TOOLS: readonly McpTool[] = TABLE.map(mcpTool);

/**
 * The tools a connection may see and call: those of its scopes (budget_status for every token) that its
 * profile, narrowed by `?tools=`, names.
 */
export function toolsFor(ctx: Pick<TenantContext, "scopes" | "profile">): McpTool[] {
  return TOOLS.filter((tool) => connectionAllows(ctx, tool));
}

/**
 * A tools/call the connection may not make: the call's id, and the scope its tool needs or (`scope`
 * absent) the tool its profile leaves out.
 */
export interface CallRefusal {
  id: string | number | null;
  tool: string;
  scope?: Scope;
}

/**
 * The first tools/call in a JSON-RPC message or batch that names a tool of the table the connection may not
 * call. Anything else (other methods, unknown tools, malformed messages) is left to the SDK to answer.
 */
export function refusedCall(
  body: unknown,
  ctx: Pick<TenantContext, "scopes" | "profile">,
): CallRefusal | null {
  for (const { method, params, id } of requestsOf(body)) {
    const tool = method === "tools/call" ? TOOLS.find(({ name }) => name === params?.name) : undefined;
    if (!tool || connectionAllows(ctx, tool)) continue;
    const callId = typeof id === "string" || typeof id === "number" ? id : null;
    const scope = tool.scope && !ctx.scopes.includes(tool.scope) ? tool.scope : undefined;
    return { id: callId, tool: tool.name, ...(scope && { scope }) };
  }
  return null;
}

/** A JSON-RPC message of a POST, as far as routing reads it (the SDK validates it). */
interface MessageFields {
  id?: unknown;
  method?: unknown;
  params?: { name?: unknown; arguments?: unknown; _meta?: unknown };
}

function requestsOf(body: unknown): MessageFields[] {
  return (Array.isArray(body) ? body : [body]).filter(
    (message): message is MessageFields => typeof message === "object" && message !== null,
  );
}

/**
 * Whether a message may set research jobs going: a call of a job tool (queued, or refused at the cap with the
 * worker woken) or a tasks request (reading a job nobody runs resumes it). The transport then keeps a
 * serverless function alive for them after the response.
 */
export function touchesJobs(body: unknown): boolean {
  return requestsOf(body).some(
    ({ method, params }) =>
      (typeof method === "string" && method.startsWith("tasks/")) ||
      (method === "tools/call" &&
        TABLE.some((tool) => tool.name === params?.name && startsJob(tool, params.arguments))),
  );
}

/**
 * Whether the answer to a message streams (SSE): when a request asks for progress, or calls a slow tool (the
 * stream's keep-alive comments hold idle proxies open through a two-minute answer). Anything else is answered
 * as one JSON body, which costs less per call.
 */
export function answerStreams(body: unknown): boolean {
  return requestsOf(body).some(
    ({ method, params }) =>
      (typeof params?._meta === "object" && params._meta !== null && "progressToken" in params._meta) ||
      (method === "tools/call" &&
        TABLE.some((tool) => tool.name === params?.name && isSlowCall(tool, params.arguments))),
  );
}
