/**
 * SearXNG instance (self-hosted metasearch) — its images category, configured with SEARXNG_URL.
 * Docs: https://docs.searxng.org/dev/search_api.html; result fields of the images template:
 *   https://docs.searxng.org/dev/templates.html (images.html)
 * Wire: GET {SEARXNG_URL}/search?q=&format=json&categories=images&pageno=1&safesearch=0|1|2&language=
 *   -> {query, results: [{url (the page), title, img_src, thumbnail_src (thumbnail on some engines),
 *   resolution ("1920 x 1080"), img_format, engine}], …}.
 * The instance applies all three safesearch levels. About 20 images per page; cut to max_results here.
 */
import { z } from "zod";
import { sameAccount } from "@/lib/providers/search/adapter-kit";
import {
  explainForbidden,
  SAFESEARCH_LEVEL,
  searxngLanguage,
  searxng as searxngSearch,
} from "@/lib/providers/search/searxng";
import { imageProvider } from "./image-kit";

const RESOLUTION = /^\s*(\d+)\s*[x×]\s*(\d+)\s*$/;

const responseSchema = z.object({
  results: z.array(
    z.object({
      url: z.string().nullish(),
      title: z.string().nullish(),
      img_src: z.string().nullish(),
      thumbnail_src: z.string().nullish(),
      thumbnail: z.string().nullish(),
      resolution: z.string().nullish(),
    }),
  ),
});

/** "1920 x 1080" as numbers; nulls when the engine gave none or something else. */
function resolution(text: string | null | undefined): { width: number | null; height: number | null } {
  const match = text ? RESOLUTION.exec(text) : null;
  return match ? { width: Number(match[1]), height: Number(match[2]) } : { width: null, height: null };
}

export const searxng = imageProvider({
  ...sameAccount(searxngSearch),
  safesearch: SAFESEARCH_LEVEL,
  schema: responseSchema,
  request: (call) => ({
    path: "/search",
    query: {
      q: call.query,
      format: "json",
      categories: "images",
      pageno: 1,
      safesearch: call.safe ?? undefined,
      language: searxngLanguage(undefined, call.options.region),
    },
  }),
  images: (data) =>
    data.results.flatMap((r) =>
      r.img_src
        ? [
            {
              imageUrl: r.img_src,
              thumbnailUrl: r.thumbnail_src ?? r.thumbnail,
              title: r.title,
              pageUrl: r.url,
              ...resolution(r.resolution),
            },
          ]
        : [],
    ),
  explain: explainForbidden,
});
