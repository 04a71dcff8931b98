/**
 * Citation normalisation shared by the answer adapters. Providers cite in their own ways: numbered
 * inline markers ("[1]", "[2][3]", "[1, 4]") pointing into a source list (Perplexity, Kagi, Brave, our
 * grounded prompts), a plain source list (Exa, Tavily) or Markdown links in the text (plain LLMs).
 * Whatever the input, the output is one list of `{title, url}` (http(s) only, one entry per normalised
 * URL) and an answer whose markers are renumbered so that [k] points at citations[k - 1].
 */
import type { Citation } from "@/lib/engine/answer/types";
import { parseResultUrl } from "@/lib/engine/search/url";
import { cleanText } from "@/lib/providers/search/text";

/** A source as a provider lists it, before clean-up. */
export interface SourceRef {
  title?: string | null;
  url: string;
}

// "[1]", "[1][2]" and "[1, 2]", but not Markdown links "[1](…)" or reference definitions "[1]: …".
// Leading blanks are captured so that a dropped marker takes its space with it.
const MARKER = /([ \t]*)\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\](?![(:])/g;
// Code is quoted verbatim: "a[1]" inside backticks is not a citation.
const CODE = /(```[\s\S]*?```|`[^`\n]*`)/;
const MARKDOWN_LINK = /\[([^\]\n]{1,300})\]\((https?:\/\/[^\s)]+)\)/g;

/** A provider's 1-based source list as a number → source map. */
export function numberFromOne(sources: readonly SourceRef[]): Map<number, SourceRef> {
  return new Map(sources.map((source, index) => [index + 1, source]));
}

/**
 * Citations from numbered sources and the answer with its markers renumbered. When the answer cites
 * at least one known source, only cited sources are kept (in order of first citation); when it cites
 * none, every source is kept, in the provider's order. Markers for unknown sources are dropped.
 */
export function citeNumbered(
  answer: string,
  sources: ReadonlyMap<number, SourceRef>,
): { answer: string; citations: Citation[] } {
  const usable = new Map<number, Citation>();
  for (const [number, source] of sources) {
    const citation = toCitation(source);
    if (citation !== null) usable.set(number, citation);
  }
  const cited = citedNumbers(answer).filter((number) => usable.has(number));
  const order = cited.length > 0 ? cited : [...usable.keys()].sort((a, b) => a - b);

  const citations: Citation[] = [];
  const indexByKey = new Map<string, number>();
  const indexByNumber = new Map<number, number>();
  for (const number of order) {
    const citation = usable.get(number);
    if (citation === undefined || indexByNumber.has(number)) continue;
    const key = citationKey(citation);
    let index = indexByKey.get(key);
    if (index === undefined) {
      index = citations.push(citation);
      indexByKey.set(key, index);
    }
    indexByNumber.set(number, index);
  }
  return { answer: renumber(answer, indexByNumber), citations };
}

/** Markdown links in the answer, as citations (their text is the title). */
export function markdownLinkCitations(answer: string): SourceRef[] {
  return proseSegments(answer).flatMap((segment) =>
    [...segment.matchAll(MARKDOWN_LINK)].map((match) => ({ title: match[1], url: match[2] ?? "" })),
  );
}

/** `base` plus the usable, not yet cited entries of `extra`; base order (and so marker numbers) is kept. */
export function appendCitations(base: readonly Citation[], extra: readonly SourceRef[]): Citation[] {
  const result = [...base];
  const keys = new Set(base.map(citationKey));
  for (const source of extra) {
    const citation = toCitation(source);
    if (citation === null || keys.has(citationKey(citation))) continue;
    keys.add(citationKey(citation));
    result.push(citation);
  }
  return result;
}

/** Clean title (the host when there is none), URL without tracking parameters; null unless http(s). */
export function toCitation(source: SourceRef): Citation | null {
  const parsed = parseResultUrl(source.url);
  if (parsed === null) return null;
  return { title: cleanText(source.title) || parsed.host, url: parsed.link };
}

function citationKey(citation: Citation): string {
  return parseResultUrl(citation.url)?.key ?? citation.url;
}

function citedNumbers(answer: string): number[] {
  const numbers: number[] = [];
  for (const segment of proseSegments(answer)) {
    for (const match of segment.matchAll(MARKER)) numbers.push(...markerNumbers(match[2] ?? ""));
  }
  return numbers;
}

function renumber(answer: string, indexByNumber: ReadonlyMap<number, number>): string {
  return answer
    .split(CODE)
    .map((segment, i) =>
      i % 2 === 1
        ? segment
        : segment.replace(MARKER, (_marker, blank: string, list: string) => {
            const indices = [...new Set(markerNumbers(list).flatMap((n) => indexByNumber.get(n) ?? []))];
            return indices.length === 0 ? "" : blank + indices.map((index) => `[${index}]`).join("");
          }),
    )
    .join("");
}

function markerNumbers(list: string): number[] {
  return list.split(",").map((part) => Number(part.trim()));
}

/** The answer minus code spans and fenced blocks (split with a capture group puts code at odd indices). */
function proseSegments(answer: string): string[] {
  return answer.split(CODE).filter((_segment, i) => i % 2 === 0);
}
