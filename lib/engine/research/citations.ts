/**
 * Citation markers in a report body: `[n]`, written after the claim they support. Every marker is checked
 * against the numbered pages (numbers outside 1..n are removed, `[1, 3]` becomes `[1][3]`, a `[2](url)`
 * link keeps only its number), and the cited pages are renumbered in order of first citation, so the
 * sources list holds exactly the pages the body cites.
 */
import { compareStrings } from "@/lib/engine/search/text";
import type { ResearchSource } from "./types";

/** `[3]`, `[1, 2]`, `[2-4]`, optionally followed by a link target the model added: `[3](https://…)`. */
const MARKER = /([ \t]*)\[\s*(\d+(?:\s*[,;–-]\s*\d+)*)\s*\](?:\([^)\n]*\))?/g;

/** A range wider than this is not a citation ("[1-2000]" is a span of years or lines). */
const MAX_RANGE = 10;

export type NumberedPage = Omit<ResearchSource, "n">;

/** The body with valid markers renumbered and the cited pages as sources, in citation order. */
export function citeSources(
  body: string,
  pages: readonly NumberedPage[],
): { body: string; sources: ResearchSource[] } {
  const renumbered = new Map<number, number>();
  const valid = (n: number) => Number.isInteger(n) && n >= 1 && n <= pages.length;
  const text = body.replace(MARKER, (_marker, space: string, inner: string) => {
    const cited = [...new Set(numbersIn(inner).filter(valid))];
    for (const n of cited) if (!renumbered.has(n)) renumbered.set(n, renumbered.size + 1);
    const numbers = cited.map((n) => renumbered.get(n) ?? n).sort((a, b) => a - b);
    return numbers.length === 0 ? "" : `${space}${numbers.map((n) => `[${n}]`).join("")}`;
  });
  const sources: ResearchSource[] = [];
  for (const [old, n] of renumbered) {
    const page = pages[old - 1];
    if (page !== undefined) {
      const { url, title, found_by, published_at } = page;
      sources.push({ n, url, title, found_by, ...(published_at && { published_at }) });
    }
  }
  return { body: text, sources };
}

/** Removes every citation-like marker: bracketed numbers in page text are the page's own footnotes. */
export function stripMarkers(text: string): string {
  return text.replace(MARKER, "");
}

function numbersIn(inner: string): number[] {
  const numbers: number[] = [];
  for (const part of inner.split(/[,;]/)) {
    const [from, to] = part.split(/[–-]/).map((n) => Number.parseInt(n.trim(), 10));
    if (from === undefined) continue;
    if (to === undefined) numbers.push(from);
    else if (to >= from && to - from <= MAX_RANGE) for (let n = from; n <= to; n++) numbers.push(n);
  }
  return numbers;
}

/** `1. [title](url) — found by brave #2, tavily #1`: each provider's best rank over all sub-queries. */
export function sourceLine(source: ResearchSource): string {
  const best = new Map<string, number>();
  for (const { provider, rank } of source.found_by) {
    best.set(provider, Math.min(rank, best.get(provider) ?? rank));
  }
  const providers = [...best.keys()]
    .sort(compareStrings)
    .map((provider) => `${provider} #${best.get(provider)}`);
  const title = source.title.replace(/\s+/g, " ").trim() || source.url;
  const link = `[${title.replace(/([[\]\\])/g, "\\$1")}](${linkTarget(source.url)})`;
  return `${source.n}. ${link}${providers.length === 0 ? "" : ` — found by ${providers.join(", ")}`}`;
}

/** Parentheses and spaces would end a Markdown link target early. */
function linkTarget(url: string): string {
  return url.replace(
    /[()\s]/g,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`,
  );
}
