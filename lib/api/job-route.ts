/**
 * The routes of one background job by id (research, crawl): GET reads it and, where nobody runs it (its
 * instance died), resumes it, staying alive after the response on serverless hosts; DELETE cancels it.
 */
import type { Scope, TenantContext } from "@/lib/pipeline/context";
import { keepWorkingAfterResponse } from "./research-work";
import { withToken } from "./with-token";

type JobVerb = (args: { ctx: TenantContext; input: { id: string } }) => Promise<unknown>;

export function jobRoute({
  route,
  scope,
  read,
  cancel,
}: {
  route: `/api/${string}`;
  scope: Scope;
  read: JobVerb;
  cancel: JobVerb;
}) {
  return {
    GET: withToken<{ id: string }>(
      async (_request, { ctx, params }) => {
        keepWorkingAfterResponse();
        return Response.json(await read({ ctx, input: { id: params.id } }));
      },
      { route, scope },
    ),
    DELETE: withToken<{ id: string }>(
      async (_request, { ctx, params }) => Response.json(await cancel({ ctx, input: { id: params.id } })),
      { route, scope },
    ),
  };
}
