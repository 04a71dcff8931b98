/**
 * Text helpers for snippet scoring, filters and tie-breaks. Input is already plain text: the adapters
 * decode entities and strip tags (lib/providers/search/text.ts) before results reach the engine.
 */

const WORD = /[\p{L}\p{N}]+/gu;

/** A sentence ends at . ! ? or … followed by space and something that can start a sentence. */
const SENTENCE_BREAK = /(?<=[.!?\u2026])\s+(?=[\p{Lu}\p{N}"'([\u201C])/u;

const UNCOLLAPSED = /\s\s|[^\S ]|^\s|\s$/;

const STOPWORDS = new Set(
  (
    "a an and are as at be but by for from has have how i in is it its of on or that the this to was " +
    "were what when where which who why will with you your"
  ).split(" "),
);

/** Lowercase words (letters and digits, any script). */
export function tokenize(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/** Distinct tokens that carry meaning: stopwords and single characters removed. */
export function contentWords(tokens: readonly string[]): Set<string> {
  const words = new Set<string>();
  for (const token of tokens) {
    if (token.length > 1 && !STOPWORDS.has(token)) words.add(token);
  }
  return words;
}

export function splitSentences(text: string): string[] {
  return text
    .split(SENTENCE_BREAK)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== "");
}

/** |a ∩ b| / min(|a|, |b|): 1 when one set holds the other; 0 when either is empty. */
export function containment(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  if (small.size === 0) return 0;
  let shared = 0;
  for (const word of small) if (large.has(word)) shared++;
  return shared / small.size;
}

/** Fraction of `terms` present in `words`; 0 when there are no terms. */
export function coverage(terms: ReadonlySet<string>, words: ReadonlySet<string>): number {
  if (terms.size === 0) return 0;
  let hit = 0;
  for (const term of terms) if (words.has(term)) hit++;
  return hit / terms.size;
}

/** Runs of whitespace become one space, ends trimmed; clean text (the common case) is returned as is. */
export function collapseWhitespace(text: string): string {
  return UNCOLLAPSED.test(text) ? text.replace(/\s+/g, " ").trim() : text;
}

/** Cuts at a word boundary so the result, ellipsis included, fits in `budget` characters. */
export function truncateAtWord(text: string, budget: number): string {
  if (text.length <= budget) return text;
  const cut = text.slice(0, Math.max(0, budget - 1));
  const lastSpace = cut.lastIndexOf(" ");
  const head = lastSpace > budget / 2 ? cut.slice(0, lastSpace) : cut;
  return `${head.replace(/[\s,;:.]+$/, "")}…`;
}

/** True when a provider cut the text off with an ellipsis. */
export function isCutOff(text: string): boolean {
  return text.endsWith("...") || text.endsWith("…");
}

/** Code-unit order, independent of locale: for deterministic tie-breaks. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
