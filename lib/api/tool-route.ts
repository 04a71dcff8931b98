/**
 * Transport: the REST routes of the tool table (lib/tools/table.ts). One dynamic route file,
 * app/api/v1/[tool]/route.ts, serves every entry at its path: its method, its scope (any token when it has
 * none), its input from the JSON body (POST) or the query string (GET), its verb, its response. A path
 * segment no entry has is a 404, another method a 405. A call that starts a job (research; crawl with
 * `async: true` or beyond a synchronous crawl's size) answers 202 with the job it queued. `estimate: true` in the input answers the estimate instead (200), calling nothing.
 */
import type { z } from "zod";
import { callTool, startsJob, type Tool } from "@/lib/tools/tool";
import { parseJsonObject, readJsonBody } from "./body";
import { keepWorkingAfterResponse } from "./research-work";
import { type MethodHandlers, resolvedRouteMethods } from "./route-methods";
import { withToken } from "./with-token";

/** The tools' dynamic route segment. */
const TOOL_ROUTE_PREFIX = "/api/v1/";

export type ToolRouteParams = { tool: string };

/** The route of one entry; the metric label is the entry's path, never the dynamic template. */
function toolRoute<I extends z.ZodObject, O extends z.ZodObject>(tool: Tool<string, I, O>) {
  return withToken<ToolRouteParams>(
    async (request, { ctx, body }) => {
      // Untrusted as it arrives: the verb validates it with its own schema.
      const input =
        tool.rest.method === "get"
          ? (Object.fromEntries(new URL(request.url).searchParams) as z.input<I>)
          : body !== undefined
            ? parseJsonObject<z.input<I>>(body)
            : await readJsonBody<z.input<I>>(request);
      if (tool.background && startsJob(tool, input)) {
        // A job: queued now, answered 202 with its status URL; it runs after the response (as do the jobs a
        // start refused at the cap wakes).
        keepWorkingAfterResponse();
        const job = await tool.background.start(ctx, input);
        return Response.json(job, { status: 202, headers: { location: `${tool.rest.path}/${job.id}` } });
      }
      // An estimate (estimate: true) calls nothing and answers 200 with {estimate}.
      const { response } = await callTool(tool, ctx, input, { signal: request.signal });
      return Response.json(response);
    },
    { route: tool.rest.path, scope: tool.scope ?? undefined, readAhead: !tool.background },
  );
}

/** The exports of the tools' dynamic route: each entry's handler under its segment and method. */
export function toolRoutes(entries: readonly Tool[]) {
  const bySegment = new Map<string, MethodHandlers<ToolRouteParams>>(
    entries.map((tool) => [
      tool.rest.path.slice(TOOL_ROUTE_PREFIX.length),
      { [tool.rest.method === "post" ? "POST" : "GET"]: toolRoute(tool) },
    ]),
  );
  return resolvedRouteMethods<ToolRouteParams>(({ tool }) => bySegment.get(tool));
}
