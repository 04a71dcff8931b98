/**
 * Snippet collapse: several providers describe one URL; the caller gets one snippet.
 *
 * - Each snippet is scored on query-term coverage (weight 2), information density (distinct content
 *   words per word, weight 1) and length up to the budget (weight 0.5); a snippet cut off with an
 *   ellipsis loses 0.1.
 * - When every other snippet mostly overlaps the best one (content-word containment ≥ 0.6), the best
 *   one is kept as it is.
 * - Otherwise sentences are merged: the best snippet's sentences first, in their order (it reads as
 *   written), then the other snippets' sentences, best-scored first; a sentence whose words are
 *   mostly (≥ 0.7) in an already chosen sentence is a duplicate and skipped; sentences that do not fit
 *   the character budget are skipped.
 * Work is bounded: at most MAX_SENTENCES sentences are compared, pairwise.
 */
import {
  collapseWhitespace,
  containment,
  contentWords,
  coverage,
  isCutOff,
  splitSentences,
  tokenize,
  truncateAtWord,
} from "./text";

const SNIPPET_BUDGET = 400;
const SNIPPET_OVERLAP = 0.6;
const SENTENCE_DUPLICATE = 0.7;
const MAX_SENTENCES = 32;

interface Scored {
  text: string;
  words: Set<string>;
  score: number;
}

export function collapseSnippets(
  snippets: readonly string[],
  queryTerms: ReadonlySet<string>,
  budget: number = SNIPPET_BUDGET,
): string {
  const texts = distinct(snippets);
  if (texts.length <= 1) return truncateAtWord(texts[0] ?? "", budget);
  const ranked = texts.map((text) => score(text, queryTerms, budget)).sort((a, b) => b.score - a.score);
  const [best, ...others] = ranked;
  if (best === undefined) return "";
  if (others.every((other) => containment(other.words, best.words) >= SNIPPET_OVERLAP)) {
    return truncateAtWord(best.text, budget);
  }
  return mergeSentences(best, others, queryTerms, budget);
}

function mergeSentences(
  best: Scored,
  others: readonly Scored[],
  queryTerms: ReadonlySet<string>,
  budget: number,
): string {
  const fromOthers = others
    .flatMap((other) => splitSentences(other.text))
    .slice(0, MAX_SENTENCES)
    .map((sentence) => score(sentence, queryTerms, budget))
    .sort((a, b) => b.score - a.score);
  const candidates = [
    ...splitSentences(best.text).map((sentence) => score(sentence, queryTerms, budget)),
    ...fromOthers,
  ].slice(0, MAX_SENTENCES);

  const chosen: Scored[] = [];
  let length = 0;
  for (const sentence of candidates) {
    if (sentence.words.size === 0) continue;
    if (chosen.some((kept) => containment(sentence.words, kept.words) >= SENTENCE_DUPLICATE)) continue;
    const added = (chosen.length === 0 ? 0 : 1) + sentence.text.length;
    if (length + added > budget) continue;
    chosen.push(sentence);
    length += added;
  }
  // No sentence fits the budget on its own: cut the best snippet instead.
  if (chosen.length === 0) return truncateAtWord(best.text, budget);
  return chosen.map((sentence) => sentence.text).join(" ");
}

function score(text: string, queryTerms: ReadonlySet<string>, budget: number): Scored {
  const tokens = tokenize(text);
  const words = contentWords(tokens);
  const density = words.size / Math.max(1, tokens.length);
  const lengthShare = Math.min(text.length, budget) / budget;
  const cutOff = isCutOff(text) ? 0.1 : 0;
  return { text, words, score: 2 * coverage(queryTerms, words) + density + 0.5 * lengthShare - cutOff };
}

/** Non-empty snippets with whitespace collapsed, case-insensitive duplicates removed, order kept. */
function distinct(snippets: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const snippet of snippets) {
    const text = collapseWhitespace(snippet);
    const key = text.toLowerCase();
    if (text === "" || seen.has(key)) continue;
    seen.add(key);
    out.push(text);
  }
  return out;
}
