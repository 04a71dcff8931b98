/**
 * What every image adapter shares, so each is declarative in the SearXNG way: an adapter builds its request
 * from the call and says where the images are in the answer; the HTTP round trip (the call's signal and
 * timeout, status and size checks, rate-limit headers, the answer checked against the adapter's schema)
 * lives once here, on the provider client every search adapter uses.
 */
import type { z } from "zod";
import { isShownImageUrl } from "@/lib/engine/images/fusion";
import type { ImageCall, ImageProvider, RawImage } from "@/lib/engine/images/types";
import {
  buildUrl,
  type ProviderRequestOptions,
  parseResponse,
  type QueryValue,
  requestJson,
} from "@/lib/http/provider-client";
import { cleanText } from "@/lib/providers/search/text";

/** One provider request: its path under the base URL, query string, body and headers. */
interface ImageRequest extends Omit<ProviderRequestOptions, "signal"> {
  path: string;
  query?: Record<string, QueryValue>;
  /** What the adapter changed in the call to fit the provider (notesOf), reported with the answer. */
  adjustments?: readonly string[];
}

/** A call as an adapter sees it: with the wire's value for the asked safesearch level. */
interface AdapterCall extends ImageCall {
  /** The provider's spelling of the level (its `safesearch` table); null when there is nothing to send. */
  safe: string | null;
}

export interface ImageAdapter<S extends z.ZodType> extends Omit<ImageProvider, "search"> {
  schema: S;
  request(call: AdapterCall): ImageRequest;
  images(data: z.output<S>): RawImage[];
  /** A clearer error for a failure this provider is known for (SearXNG's 403 without JSON output). */
  explain?(error: unknown): unknown;
}

/**
 * An image provider from its declaration: the request sent, the answer checked, images whose URL may not be
 * shown dropped (fusion.ts's rule), then capped, titles cleaned.
 */
export function imageProvider<S extends z.ZodType>({
  schema,
  request,
  images,
  explain = (error) => error,
  ...registration
}: ImageAdapter<S>): ImageProvider {
  return {
    ...registration,
    async search(call) {
      const safe = registration.safesearch[call.options.safesearch] ?? null;
      const { path, query, adjustments = [], ...options } = request({ ...call, safe });
      try {
        const response = await requestJson(buildUrl(call.baseUrl, path, query), {
          ...options,
          signal: call.signal,
        });
        // Checked before the cut: hostile entries a provider lists first must not push good images out.
        const listed = images(parseResponse(schema, response.json))
          .filter((image) => isShownImageUrl(image.imageUrl))
          .slice(0, call.options.maxResults)
          .map((image) => ({ ...image, title: cleanText(image.title) }));
        return {
          images: listed,
          httpStatus: response.status,
          bytes: response.bytes,
          ...(response.rateLimit && { rateLimit: response.rateLimit }),
          ...(adjustments.length > 0 && { adjustments: [...adjustments] }),
        };
      } catch (error) {
        throw explain(error);
      }
    },
  };
}
