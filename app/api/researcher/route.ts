import { readJsonBody } from "@/lib/api/body";
import { compatSearch } from "@/lib/api/compat-search";
import { routeMethods } from "@/lib/api/route-methods";
import { bearerToken, withToken } from "@/lib/api/with-token";

export const dynamic = "force-dynamic";
/** A web search, with grounded snippets when the workspace has them on (see app/api/v1/[tool]/route.ts). */
export const maxDuration = 300;

/**
 * GPT-Researcher's custom retriever (RETRIEVER=custom, RETRIEVER_ENDPOINT=<here>): it sends
 * `GET ?query=…` plus its RETRIEVER_ARG_* values (so RETRIEVER_ARG_API_KEY arrives as `?api_key=`), and
 * reads `url` / `raw_content`; our API reference names the shape `[{href, body}]`, so both pairs are returned.
 */
const retrieved = (results: Awaited<ReturnType<typeof compatSearch>>) =>
  Response.json(
    results.map((r) => ({
      href: r.url,
      body: r.snippet,
      url: r.url,
      raw_content: r.snippet,
      title: r.title,
    })),
  );

const options = {
  route: "/api/researcher" as const,
  scope: "search" as const,
  tokenFrom: (request: Request) => bearerToken(request) ?? new URL(request.url).searchParams.get("api_key"),
};

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  GET: withToken(async (request, { ctx }) => {
    const params = new URL(request.url).searchParams;
    return retrieved(await compatSearch(ctx, params.get("query"), params.get("max_results")));
  }, options),
  POST: withToken(async (request, { ctx }) => {
    const body = await readJsonBody<{ query?: unknown; max_results?: unknown }>(request);
    return retrieved(await compatSearch(ctx, body.query, body.max_results));
  }, options),
});
