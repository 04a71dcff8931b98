import { z } from "zod";
import { readJsonBody } from "@/lib/api/body";
import { sessionContext } from "@/lib/auth/context";
import { currentSession } from "@/lib/auth/session";
import { config } from "@/lib/config";
import type { PlaygroundError, PlaygroundEvent } from "@/lib/dashboard/playground-events";
import { PLAYGROUND_TOOL_NAMES, runPlaygroundTool } from "@/lib/dashboard/playground-run";
import { log } from "@/lib/observability/logger";
import { ServiceError } from "@/lib/pipeline/errors";
import { pendingWritesSettled } from "@/lib/pipeline/platform";
import { limitSignedInUser } from "@/lib/pipeline/rate-limit/limits";

export const dynamic = "force-dynamic";
/** Any tool, grounded search being the longest (see /api/v1/search). */
export const maxDuration = 300;

const runRequest = z.strictObject({
  tool: z.enum(PLAYGROUND_TOOL_NAMES),
  input: z.record(z.string(), z.unknown()),
});

const refuse = (status: number, code: string, message: string, headers?: Record<string, string>) =>
  Response.json({ error: { code, message } }, { status, headers });

/**
 * Another site's page must not run calls on the signed-in user's budgets (the session cookie rides along):
 * a browser's Origin must be this deployment (its Host, the proxy's X-Forwarded-Host, or AUTH_URL).
 */
function sameOrigin(request: Request): boolean {
  const origin = request.headers.get("origin");
  if (origin === null) return true;
  if (!URL.canParse(origin)) return false;
  const configured = config().auth.url;
  const ours = [
    request.headers.get("host"),
    request.headers.get("x-forwarded-host"),
    configured && URL.canParse(configured) ? new URL(configured).host : null,
  ];
  return ours.includes(new URL(origin).host);
}

function errorOf(error: unknown): PlaygroundError {
  if (error instanceof ServiceError)
    return { code: error.code, message: error.message, details: error.details };
  log().error({ err: error }, "playground run failed");
  return { code: "internal", message: "The call failed on the server; the log has the details." };
}

/**
 * POST /dashboard/playground/run — runs one tool call for the signed-in user, within the per-token rate
 * limit of the workspace (429 with Retry-After beyond it), and streams NDJSON: a
 * `progress` line as each provider finishes, then the `result` (once its trace is stored, so the trace
 * link works at once) or an `error`.
 */
export async function POST(request: Request): Promise<Response> {
  const session = await currentSession();
  if (!session) return refuse(401, "unauthorized", "sign in to use the playground");
  if (!sameOrigin(request)) return refuse(403, "forbidden", "cross-origin requests are refused");
  const ctx = await sessionContext(session);
  // The limit a token of this workspace has: the playground spends the same providers and budgets.
  const limit = await limitSignedInUser(ctx, session.user.id);
  if (!limit.ok) {
    return refuse(
      429,
      "rate_limited",
      `Rate limit of ${limit.limit} runs a minute reached; try again in ${limit.retryAfter} s.`,
      { "retry-after": String(limit.retryAfter) },
    );
  }
  const parsed = runRequest.safeParse(await readJsonBody(request).catch(() => null));
  if (!parsed.success) return refuse(400, "invalid_input", "expected {tool, input}");
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
}
