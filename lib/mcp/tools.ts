/**
 * MCP: the tools of the table (lib/tools/table.ts). Each calls the same service verb as REST and the
 * dashboard, with the verb's own strict input schema; only the tools a token's scopes allow are
 * registered (and so listed). A call to one of the others is refused before the server sees it
 * (`missingScope`), with a challenge the client can step up from.
 */
import type { Scope } from "@/lib/pipeline/context";
import { TOOLS as TABLE } from "@/lib/tools/table";
import { isSlowCall, startsJob } from "@/lib/tools/tool";
import { type McpTool, mcpTool } from "./define-tool";

export const TOOLS: readonly McpTool[] = TABLE.map(mcpTool);

/** The tools a token may see and call: those of its scopes, and budget_status for every token. */
export function toolsForScopes(scopes: readonly Scope[]): McpTool[] {
  return TOOLS.filter((tool) => tool.scope === null || scopes.includes(tool.scope));
}

/** A tools/call the token may not make: the call's id and the scope its tool needs. */
export interface ScopeRefusal {
  id: string | number | null;
  scope: Scope;
}

/**
 * The first tools/call in a JSON-RPC message or batch that names a tool of the table outside `scopes`.
 * Anything else (other methods, unknown tools, malformed messages) is left to the SDK to answer.
 */
export function missingScope(body: unknown, scopes: readonly Scope[]): ScopeRefusal | null {
  for (const { method, params, id } of requestsOf(body)) {
    if (method !== "tools/call") continue;
    const scope = TOOLS.find((tool) => tool.name === params?.name)?.scope;
    if (scope && !scopes.includes(scope)) {
      return { id: typeof id === "string" || typeof id === "number" ? id : null, scope };
    }
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
