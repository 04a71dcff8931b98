import { readJsonBody } from "@/lib/api/body";
import { toPaperSearchResponse } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";
import { paperSearch } from "@/lib/services/papers/paper-search";

export const dynamic = "force-dynamic";

/** POST /api/v1/papers — arXiv, PubMed, Semantic Scholar and OpenAlex, merged. */
export const POST = withToken(
  async (request, { ctx }) =>
    Response.json(
      toPaperSearchResponse(
        await paperSearch({ ctx, input: await readJsonBody(request), signal: request.signal }),
      ),
    ),
  { route: "/api/v1/papers", scope: "papers" },
);
