import { z } from "zod";
import { readJsonBody } from "@/lib/api/body";
import { errorResponse } from "@/lib/api/errors";
import type { PlaygroundError, PlaygroundEvent } from "@/lib/dashboard/playground-events";
import { PLAYGROUND_TOOL_NAMES, runPlaygroundTool } from "@/lib/dashboard/playground-run";
import { withSession } from "@/lib/dashboard/with-session";
import { log } from "@/lib/observability/logger";
import { ServiceError } from "@/lib/pipeline/errors";
import { pendingWritesSettled } from "@/lib/pipeline/platform";

export const dynamic = "force-dynamic";
/** Any tool, grounded search being the longest (see /api/v1/search). */
export const maxDuration = 300;

const runRequest = z.strictObject({
  tool: z.enum(PLAYGROUND_TOOL_NAMES),
  input: z.record(z.string(), z.unknown()),
});

function errorOf(error: unknown): PlaygroundError {
  if (error instanceof ServiceError)
    return { code: error.code, message: error.message, details: error.details };
  log().error({ err: error }, "playground run failed");
  return { code: "internal", message: "The call failed on the server; the log has the details." };
}

/**
 * POST /dashboard/playground/run — runs one tool call for the signed-in user (withSession: same-site
 * requests only, within the per-token rate limit of the workspace, traced as the playground's), and
 * streams NDJSON: a `progress` line as each provider finishes, then the `result` (once its trace is
 * stored, so the trace link works at once) or an `error`.
 */
export const POST = withSession(
  async (request, { ctx }) => {
    const parsed = runRequest.safeParse(await readJsonBody(request).catch(() => null));
    if (!parsed.success) return errorResponse("invalid_input", "expected {tool, input}");
    const { tool, input } = parsed.data;

    const encoder = new TextEncoder();
    let open = true;
    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        const send = (event: PlaygroundEvent) => {
          if (open) controller.enqueue(encoder.encode(`${JSON.stringify(event)}\n`));
        };
        try {
          const result = await runPlaygroundTool(ctx, tool, input, {
            onProgress: (span) => send({ type: "progress", span }),
            signal: request.signal,
          });
          await pendingWritesSettled();
          send({ type: "result", ...result });
        } catch (error) {
          await pendingWritesSettled();
          send({ type: "error", error: errorOf(error) });
        }
        if (open) controller.close();
      },
      cancel() {
        // The browser went away: request.signal stops the provider calls; the call is still traced.
        open = false;
      },
    });
    return new Response(stream, {
      headers: {
        "content-type": "application/x-ndjson; charset=utf-8",
        "cache-control": "no-store",
        "x-accel-buffering": "no",
      },
    });
  },
  { surface: "playground" },
);
