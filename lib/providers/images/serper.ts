/**
 * Serper — Google Images.
 * Docs: https://serper.dev/playground (type "Images": POST https://google.serper.dev/images)
 * Wire: POST {base}/images, `X-API-KEY: <key>`, JSON body {q, num, gl}
 *   -> {searchParameters, images: [{title, imageUrl, imageWidth, imageHeight, thumbnailUrl, thumbnailWidth,
 *   thumbnailHeight, source, domain, link (the page), googleUrl, position}]}.
 * Serper documents no safe-search parameter, so it can honour safesearch "off" only: strict and moderate
 * searches skip it.
 */
import { z } from "zod";
import { requireApiKey, sameAccount } from "@/lib/providers/search/adapter-kit";
import { serper as serperSearch } from "@/lib/providers/search/serper";
import { imageProvider } from "./image-kit";

const MAX_RESULTS = 100;

const responseSchema = z.object({
  images: z
    .array(
      z.object({
        title: z.string().nullish(),
        imageUrl: z.string(),
        imageWidth: z.number().nullish(),
        imageHeight: z.number().nullish(),
        thumbnailUrl: z.string().nullish(),
        link: z.string().nullish(),
      }),
    )
    .nullish(),
});

export const serper = imageProvider({
  ...sameAccount(serperSearch),
  safesearch: { off: null },
  schema: responseSchema,
  request: (call) => ({
    path: "/images",
    method: "POST",
    headers: { "x-api-key": requireApiKey(call, serperSearch.displayName) },
    json: { q: call.query, num: Math.min(call.options.maxResults, MAX_RESULTS), gl: call.options.region },
  }),
  images: (data) =>
    (data.images ?? []).map((r) => ({
      imageUrl: r.imageUrl,
      thumbnailUrl: r.thumbnailUrl,
      title: r.title,
      pageUrl: r.link,
      width: r.imageWidth,
      height: r.imageHeight,
    })),
});
