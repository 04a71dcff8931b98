import { readJsonBody } from "@/lib/api/body";
import { toAnswerResponse } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";
import { answer } from "@/lib/services/answer/answer";

export const dynamic = "force-dynamic";
/** Answer providers may take two minutes; platforms that cap function duration honour this. */
export const maxDuration = 150;

/** POST /api/v1/answer — every configured answer provider side by side, with citations. */
export const POST = withToken(
  async (request, { ctx }) =>
    Response.json(
      toAnswerResponse(await answer({ ctx, input: await readJsonBody(request), signal: request.signal })),
    ),
  { route: "/api/v1/answer", scope: "answer" },
);
