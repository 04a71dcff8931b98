/**
 * Image search and find-similar wires for the fake provider server: `startFakeProviders(IMAGE_WIRES)`. Each
 * image wire is keyed by `image-<provider id>` (the search wires own the bare ids) and renders
 * `scenario.payload` (FakeImage[]) in that provider's documented response shape, on the method and path its
 * adapter calls (lib/providers/images/*.ts name each wire format and where it is documented); `similar-exa`
 * renders `scenario.payload` (FakeResult[]) as Exa's findSimilar answer.
 */
import {
  BRAVE_PAID_PLAN_HEADERS,
  bearer,
  braveRefusal,
  type FakeResult,
  type FakeWire,
  header,
  json,
  keyless,
} from "./provider-server";

export interface FakeImage {
  title: string;
  imageUrl: string;
  thumbnailUrl?: string;
  /** The page the image is on. */
  pageUrl?: string;
  width?: number;
  height?: number;
}

/** Three images, the first two listed by every provider, so fusion has overlaps. */
export const DEFAULT_IMAGES: readonly FakeImage[] = [1, 2, 3].map((n) => ({
  title: `Image ${n}`,
  imageUrl: `https://images.example.com/photo-${n}.jpg`,
  thumbnailUrl: `https://thumbs.example.com/photo-${n}.jpg`,
  pageUrl: `https://example.com/gallery/${n}`,
  width: 1600 + n,
  height: 900 + n,
}));

export const SIMILAR_PAGES: readonly FakeResult[] = [1, 2, 3].map((n) => ({
  title: `Similar page ${n}`,
  url: `https://similar.example.org/page-${n}`,
  snippet: `A page much like the one asked about, number ${n}.`,
}));

export const imageWireId = (providerId: string) => `image-${providerId}`;

const images = (payload: unknown) => (payload as readonly FakeImage[] | undefined) ?? DEFAULT_IMAGES;

export const IMAGE_WIRES: Readonly<Record<string, FakeWire>> = {
  "image-brave": {
    method: "GET",
    path: "/res/v1/images/search",
    credential: header("x-subscription-token"),
    headers: BRAVE_PAID_PLAN_HEADERS,
    render: ({ payload }, request) =>
      braveRefusal(request) ??
      json({
        type: "images",
        query: { original: "fake", spellcheck_off: false, show_strict_warning: false },
        results: images(payload).map((image) => ({
          type: "image_result",
          title: image.title,
          url: image.pageUrl,
          source: image.pageUrl ? new URL(image.pageUrl).host : undefined,
          page_fetched: "2025-01-01T00:00:00Z",
          thumbnail: { src: image.thumbnailUrl, width: 200, height: 113 },
          properties: {
            url: image.imageUrl,
            placeholder: image.thumbnailUrl,
            width: image.width,
            height: image.height,
          },
          meta_url: { scheme: "https", netloc: "example.com", hostname: "example.com", path: "/" },
          confidence: "high",
        })),
        extra: { might_be_offensive: false },
      }),
  },
  "image-serper": {
    method: "POST",
    path: "/images",
    credential: header("x-api-key"),
    render: ({ payload }) =>
      json({
        searchParameters: { q: "fake", type: "images", engine: "google", num: 10 },
        images: images(payload).map((image, i) => ({
          title: image.title,
          imageUrl: image.imageUrl,
          imageWidth: image.width,
          imageHeight: image.height,
          thumbnailUrl: image.thumbnailUrl,
          thumbnailWidth: 200,
          thumbnailHeight: 113,
          source: "Example",
          domain: "example.com",
          link: image.pageUrl,
          googleUrl: "https://www.google.com/imgres?imgurl=fake",
          position: i + 1,
        })),
        credits: 1,
      }),
  },
  "image-serpapi": {
    method: "GET",
    path: "/search.json",
    credential: (request) => request.query.api_key,
    render: ({ payload }) =>
      json({
        search_metadata: { id: "fake", status: "Success" },
        search_parameters: { engine: "google_images", q: "fake" },
        images_results: images(payload).map((image, i) => ({
          position: i + 1,
          thumbnail: image.thumbnailUrl,
          source: "Example",
          title: image.title,
          link: image.pageUrl,
          original: image.imageUrl,
          original_width: image.width,
          original_height: image.height,
          is_product: false,
        })),
      }),
  },
  "image-tavily": {
    method: "POST",
    path: "/search",
    credential: bearer,
    render: ({ payload }) =>
      json({
        query: "fake",
        answer: null,
        images: images(payload).map((image) => ({ url: image.imageUrl, description: image.title })),
        results: [],
        response_time: 0.42,
      }),
  },
  "image-searxng": {
    method: "GET",
    path: "/search",
    credential: keyless,
    render: ({ payload }) =>
      json({
        query: "fake",
        number_of_results: 0,
        results: images(payload).map((image) => ({
          template: "images.html",
          url: image.pageUrl,
          title: image.title,
          content: "",
          img_src: image.imageUrl,
          thumbnail_src: image.thumbnailUrl,
          resolution: image.width && image.height ? `${image.width} x ${image.height}` : undefined,
          img_format: "jpeg",
          engine: "fake images",
          category: "images",
        })),
        answers: [],
        suggestions: [],
        unresponsive_engines: [],
      }),
  },
  "similar-exa": {
    method: "POST",
    path: "/findSimilar",
    credential: header("x-api-key"),
    render: ({ payload }) =>
      json({
        requestId: "fake-similar",
        results: ((payload as readonly FakeResult[] | undefined) ?? SIMILAR_PAGES).map((page, i) => ({
          id: page.url,
          title: page.title,
          url: page.url,
          publishedDate: page.publishedAt ?? null,
          author: null,
          score: 0.9 - i / 100,
          text: page.snippet,
        })),
        costDollars: { total: 0.005 },
      }),
  },
};
