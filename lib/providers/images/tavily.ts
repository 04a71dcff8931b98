/**
 * Tavily — the images of a search.
 * Docs: https://docs.tavily.com/documentation/api-reference/endpoint/search (include_images,
 *   include_image_descriptions)
 * Wire: POST {base}/search, `Authorization: Bearer <key>`, JSON body {query, search_depth: "basic",
 *   max_results, include_images: true, include_image_descriptions: true, country} (query fitted to Tavily's 400
 *   characters, told in `adjustments`)
 *   -> {query, results, images: [{url, description}] (plain URL strings without descriptions), response_time}.
 * Tavily's images carry no size and no page: width, height and page_url are null unless another provider
 * lists the same image. It documents no adult-content filter for them, so it can honour safesearch "off"
 * only. A basic search is 1 credit, as for web search.
 */
import { z } from "zod";
import { TAVILY_ERRORS } from "@/lib/providers/error-rules";
import { notesOf, requireApiKey, sameAccount } from "@/lib/providers/search/adapter-kit";
import { fitPlainQuery } from "@/lib/providers/search/query-text";
import { TAVILY_QUERY_LIMIT, tavilyCountry, tavily as tavilySearch } from "@/lib/providers/search/tavily";
import { imageProvider } from "./image-kit";

/** Web results Tavily returns beside the images; the images are what is used. */
const WEB_RESULTS = 5;

const responseSchema = z.object({
  images: z
    .array(z.union([z.string(), z.object({ url: z.string(), description: z.string().nullish() })]))
    .nullish(),
});

export const tavily = imageProvider({
  ...sameAccount(tavilySearch),
  safesearch: { off: null },
  schema: responseSchema,
  request: (call) => {
    const query = fitPlainQuery(call.query, TAVILY_QUERY_LIMIT);
    return {
      path: "/search",
      errorRules: TAVILY_ERRORS,
      method: "POST",
      headers: { authorization: `Bearer ${requireApiKey(call, tavilySearch.displayName)}` },
      json: {
        query: query.value,
        search_depth: "basic",
        max_results: WEB_RESULTS,
        include_images: true,
        include_image_descriptions: true,
        country: call.options.region ? tavilyCountry(call.options.region) : undefined,
      },
      adjustments: notesOf(query),
    };
  },
  images: (data) =>
    (data.images ?? []).map((image) =>
      typeof image === "string" ? { imageUrl: image } : { imageUrl: image.url, title: image.description },
    ),
});
