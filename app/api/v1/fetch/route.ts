import { readJsonBody } from "@/lib/api/body";
import { toFetchResponse } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";
import { fetchPage } from "@/lib/services/fetch/fetch-page";

export const dynamic = "force-dynamic";

/** POST /api/v1/fetch — a page as Markdown, text or HTML, through the SSRF-safe fetcher and providers. */
export const POST = withToken(
  async (request, { ctx }) =>
    Response.json(
      toFetchResponse(await fetchPage({ ctx, input: await readJsonBody(request), signal: request.signal })),
    ),
  { route: "/api/v1/fetch", scope: "fetch" },
);
