/**
 * Images fused across providers by their normalised image URL, Reciprocal Rank Fusion as for web results
 * (score = Σ 1/(k + rank), one term per provider that listed the image).
 *
 * Every URL passes the checks search results pass (http(s) only, parseResultUrl) and the SSRF rules that
 * need no DNS (no credentials, no port but 80/443, no localhost, internal names or private, loopback and
 * metadata addresses): a client that loads a thumbnail must not be pointed at its own network. An image
 * whose own URL fails is dropped; a thumbnail or page URL that fails becomes null. Width and height are
 * whole positive pixel counts or null. The image URL is the best-ranked one, over https when any provider
 * gave it so (url.ts, preferHttps).
 */

import { RRF_K } from "@/lib/engine/search/fusion";
import { compareStrings } from "@/lib/engine/search/text";
import { parseResultUrl, preferHttps } from "@/lib/engine/search/url";
import { checkUrl, EMPTY_ALLOWLIST } from "@/lib/http/ssrf";
import type { FusedImage, RawImage } from "./types";

const MAX_PIXELS = 100_000;

/** A URL shown to clients: cleaned as search links are, with its fusion key; null when refused. */
function checkedUrl(raw: string | null | undefined): { key: string; link: string } | null {
  const parsed = raw ? parseResultUrl(raw) : null;
  if (!raw || !parsed) return null;
  try {
    // The URL as the provider gave it: credentials, which the shown link would drop, refuse it too.
    checkUrl(new URL(raw.trim()), { allowlist: EMPTY_ALLOWLIST });
  } catch {
    return null;
  }
  return { key: parsed.key, link: parsed.link };
}

/** Whether an image may be shown by its own URL: what an adapter checks before it cuts its list to size. */
export const isShownImageUrl = (raw: string): boolean => checkedUrl(raw) !== null;

const pixels = (value: number | null | undefined): number | null =>
  typeof value === "number" && Number.isInteger(value) && value > 0 && value <= MAX_PIXELS ? value : null;

interface Hit {
  provider: string;
  rank: number;
  imageUrl: string;
  image: RawImage;
}

interface Candidate {
  key: string;
  score: number;
  bestRank: number;
  hits: Hit[];
}

/** The first of the hits (best first) that has the field. */
const firstOf = <T>(hits: readonly Hit[], pick: (hit: Hit) => T | null): T | null => {
  for (const hit of hits) {
    const value = pick(hit);
    if (value !== null) return value;
  }
  return null;
};

export function fuseImages(
  lists: ReadonlyArray<{ provider: string; images: readonly RawImage[] }>,
  maxResults: number,
): FusedImage[] {
  const candidates = new Map<string, Candidate>();
  for (const { provider, images } of lists) {
    const seen = new Set<string>();
    images.forEach((image, index) => {
      const checked = checkedUrl(image.imageUrl);
      if (!checked || seen.has(checked.key)) return;
      seen.add(checked.key);
      const rank = index + 1;
      const hit = { provider, rank, imageUrl: checked.link, image };
      const candidate = candidates.get(checked.key);
      if (candidate) {
        candidate.score += 1 / (RRF_K + rank);
        candidate.bestRank = Math.min(candidate.bestRank, rank);
        candidate.hits.push(hit);
      } else {
        candidates.set(checked.key, {
          key: checked.key,
          score: 1 / (RRF_K + rank),
          bestRank: rank,
          hits: [hit],
        });
      }
    });
  }
  return [...candidates.values()]
    .map((candidate) => ({ ...candidate, score: Math.round(candidate.score * 1e12) / 1e12 }))
    .sort(
      (a, b) =>
        b.score - a.score ||
        a.bestRank - b.bestRank ||
        b.hits.length - a.hits.length ||
        compareStrings(a.key, b.key),
    )
    .slice(0, maxResults)
    .map(toFusedImage);
}

function toFusedImage(candidate: Candidate): FusedImage {
  const hits = [...candidate.hits].sort((a, b) => a.rank - b.rank || compareStrings(a.provider, b.provider));
  const sized = hits.find((hit) => pixels(hit.image.width) !== null && pixels(hit.image.height) !== null);
  return {
    image_url: preferHttps(hits.map((hit) => hit.imageUrl)) ?? candidate.key,
    thumbnail_url: firstOf(hits, (hit) => checkedUrl(hit.image.thumbnailUrl)?.link ?? null),
    title: firstOf(hits, (hit) => hit.image.title?.trim() || null) ?? "",
    page_url: firstOf(hits, (hit) => checkedUrl(hit.image.pageUrl)?.link ?? null),
    width: pixels(sized?.image.width),
    height: pixels(sized?.image.height),
    score: candidate.score,
    sources: hits.map(({ provider, rank }) => ({ provider, rank })),
  };
}
