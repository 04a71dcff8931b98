/**
 * Brave Search API — image search.
 * Docs: https://api-dashboard.search.brave.com/api-reference/images/image_search (API v1); response objects:
 *   https://api-dashboard.search.brave.com/app/documentation/image-search/responses
 * Wire: GET {base}/res/v1/images/search, `X-Subscription-Token: <key>`, query q (≤ 400 chars and ≤ 50 words,
 *   else 422: fitted), count ≤ 200 (default 50), country (web search's list or ALL, else 422: another region is
 *   sent as ALL; each change told in `adjustments`), safesearch off|strict (default strict; images have no
 *   moderate, so moderate is sent as strict, the stricter of the two), spellcheck
 *   -> {type: "images", query, results: [{type: "image_result", title, url (the page), source, thumbnail: {src,
 *   width?, height?}, properties: {url (the image), placeholder, width?, height?}, meta_url, confidence}]}.
 * Plans: image search is part of Brave's Search plan, with the same key as web search; a call is one query of
 * the plan (the free plan's 2,000 a month and 1 a second are shared with web search).
 */
import { z } from "zod";
import { notesOf, requireApiKey, sameAccount } from "@/lib/providers/search/adapter-kit";
import { BRAVE_QUERY_LIMIT, braveCountry, brave as braveSearch } from "@/lib/providers/search/brave";
import { fitPlainQuery } from "@/lib/providers/search/query-text";
import { imageProvider } from "./image-kit";

const MAX_RESULTS = 200;

const size = { width: z.number().nullish(), height: z.number().nullish() };
const responseSchema = z.object({
  results: z.array(
    z.object({
      title: z.string().nullish(),
      url: z.string().nullish(),
      thumbnail: z.object({ src: z.string().nullish(), ...size }).nullish(),
      properties: z.object({ url: z.string().nullish(), ...size }).nullish(),
    }),
  ),
});

export const brave = imageProvider({
  ...sameAccount(braveSearch),
  docsUrl: "https://api-dashboard.search.brave.com/api-reference/images/image_search",
  apiVersion: "v1",
  safesearch: { strict: "strict", moderate: "strict", off: "off" },
  schema: responseSchema,
  request: (call) => {
    const query = fitPlainQuery(call.query, BRAVE_QUERY_LIMIT);
    const country = braveCountry(call.options.region);
    return {
      path: "/res/v1/images/search",
      headers: { "x-subscription-token": requireApiKey(call, braveSearch.displayName) },
      query: {
        q: query.value,
        count: Math.min(call.options.maxResults, MAX_RESULTS),
        country: country.value,
        safesearch: call.safe ?? undefined,
      },
      adjustments: notesOf(query, country),
    };
  },
  images: (data) =>
    data.results.flatMap((r) =>
      r.properties?.url
        ? [
            {
              imageUrl: r.properties.url,
              thumbnailUrl: r.thumbnail?.src,
              title: r.title,
              pageUrl: r.url,
              width: r.properties.width,
              height: r.properties.height,
            },
          ]
        : [],
    ),
});
