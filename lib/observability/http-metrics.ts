/**
 * The metric samples and log line of one token-authenticated HTTP request. The route label is the
 * handler's own template, never the requested path: paths carry ids and tokens anyone can vary, and a
 * label per path would grow the registry (and every scrape) with each random URL, 401s included.
 */
import { log } from "./logger";
import { metrics } from "./metrics";
import type { RequestScope } from "./request-scope";

/** A route handler's file-system path under app/, e.g. "/api/v1/traces/[id]" or "/api/mcp/t/[token]". */
export type RouteTemplate = `/api/${string}`;

export interface ObservedRequest {
  route: RouteTemplate;
  method: string;
  /** An HTTP status, 200–599 for any Response: a bounded label as it is. */
  status: number;
  durationMs: number;
}

export function observeRequest(request: ObservedRequest, scope: RequestScope): void {
  const { route, method, status, durationMs } = request;
  const m = metrics();
  m.httpRequests.inc({ route, status: String(status) });
  m.httpRequestSeconds.observe({ route }, durationMs / 1000);
  log().info(
    {
      request_id: scope.requestId,
      tenant_id: scope.tenantId,
      method,
      route,
      status,
      duration_ms: Math.round(durationMs),
    },
    "request",
  );
}
