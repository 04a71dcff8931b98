import { z } from "zod";
import { readJsonBody } from "@/lib/api/body";
import { errorResponse } from "@/lib/api/errors";
import { ESTIMATED_TOOL_NAMES, estimatePlaygroundTool } from "@/lib/dashboard/playground-run";
import { withSession } from "@/lib/dashboard/with-session";

export const dynamic = "force-dynamic";

const estimateRequest = z.strictObject({
  tool: z.enum(ESTIMATED_TOOL_NAMES),
  input: z.record(z.string(), z.unknown()),
});

/**
 * POST /dashboard/playground/estimate — what a playground call with this input would ask and the most it
 * could cost (the tool's `estimate: true`), for the figure beside the Run button: `{estimate}`, or the
 * error the call would answer. Nothing is called, charged or traced; the request counts against the
 * user's rate limit like a run (the page debounces it).
 */
export const POST = withSession(
  async (request, { ctx }) => {
    const parsed = estimateRequest.safeParse(await readJsonBody(request).catch(() => null));
    if (!parsed.success) return errorResponse("invalid_input", "expected {tool, input}");
    return Response.json(await estimatePlaygroundTool(ctx, parsed.data.tool, parsed.data.input));
  },
  { surface: "playground" },
);
