/**
 * SerpApi — Google Images engine.
 * Docs: https://serpapi.com/google-images-api (engine=google_images)
 * Wire: GET {base}/search.json with query parameters engine=google_images, q, gl, safe=active|off, api_key
 *   -> {search_metadata, images_results: [{position, thumbnail, source, title, link (the page), original
 *   (the image), original_width, original_height, is_product}], error?}.
 * Google's `safe` has two levels: moderate is sent as active, like strict. One page holds up to 100 images;
 * there is no count parameter, so the list is cut to max_results here.
 */
import { z } from "zod";
import { ProviderError } from "@/lib/engine/shared/errors";
import { SERPAPI_ERRORS } from "@/lib/providers/error-rules";
import { requireApiKey, sameAccount } from "@/lib/providers/search/adapter-kit";
import { serpapi as serpapiSearch } from "@/lib/providers/search/serpapi";
import { imageProvider } from "./image-kit";

const responseSchema = z.object({
  error: z.string().nullish(),
  images_results: z
    .array(
      z.object({
        title: z.string().nullish(),
        link: z.string().nullish(),
        original: z.string().nullish(),
        original_width: z.number().nullish(),
        original_height: z.number().nullish(),
        thumbnail: z.string().nullish(),
      }),
    )
    .nullish(),
});

export const serpapi = imageProvider({
  ...sameAccount(serpapiSearch),
  docsUrl: "https://serpapi.com/google-images-api",
  apiVersion: "2025 REST (unversioned), engine=google_images",
  safesearch: { strict: "active", moderate: "active", off: "off" },
  schema: responseSchema,
  request: (call) => ({
    path: "/search.json",
    errorRules: SERPAPI_ERRORS,
    query: {
      engine: "google_images",
      q: call.query,
      gl: call.options.region,
      safe: call.safe ?? undefined,
      api_key: requireApiKey(call, serpapiSearch.displayName),
    },
  }),
  images: (data) => {
    if (data.error && !data.images_results && !/hasn't returned any results/i.test(data.error)) {
      throw new ProviderError("http_error", `SerpApi: ${data.error}`);
    }
    return (data.images_results ?? []).flatMap((r) =>
      r.original
        ? [
            {
              imageUrl: r.original,
              thumbnailUrl: r.thumbnail,
              title: r.title,
              pageUrl: r.link,
              width: r.original_width,
              height: r.original_height,
            },
          ]
        : [],
    );
  },
});
