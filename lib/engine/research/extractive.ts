/**
 * The report body without a model: the pages' sentences scored by BM25 against the question's terms,
 * at most three per page and no near-repeats, most relevant first, each a bullet ending with its page's
 * citation. Sentences that share no term rank after those that do, the pages' opening sentences first,
 * so a question worded unlike its pages still gets their substance.
 */
import { containment, contentWords, splitSentences, tokenize } from "@/lib/engine/search/text";
import { stripMarkers } from "./citations";
import { questionTerms } from "./terms";

export const MAX_FINDINGS = 10;
export const FINDINGS_PER_PAGE = 3;

const MIN_SENTENCE_CHARS = 40;
const MAX_SENTENCE_CHARS = 400;
const MIN_SENTENCE_WORDS = 6;
/** Content-word containment at which a sentence repeats one already chosen. */
const REPEAT = 0.8;
const BM25_K1 = 1.2;
const BM25_B = 0.75;

interface Sentence {
  text: string;
  /** Index of its page. */
  page: number;
  /** Its position among its page's sentences. */
  ordinal: number;
  tokens: string[];
  score: number;
}

/** Bullets `- sentence [n]` with n the page's 1-based index; "" when no page has a usable sentence. */
export function extractiveBody(question: string, pages: ReadonlyArray<{ content: string }>): string {
  const sentences = pages.flatMap((page, index) =>
    sentencesOf(page.content).map((text, ordinal) => ({
      text,
      page: index,
      ordinal,
      tokens: tokenize(text),
      score: 0,
    })),
  );
  scoreBm25(sentences, questionTerms(question));
  sentences.sort((a, b) => b.score - a.score || a.ordinal - b.ordinal || a.page - b.page);

  const chosen: Array<Sentence & { words: Set<string> }> = [];
  const perPage = new Map<number, number>();
  for (const sentence of sentences) {
    if (chosen.length >= MAX_FINDINGS) break;
    const taken = perPage.get(sentence.page) ?? 0;
    if (taken >= FINDINGS_PER_PAGE) continue;
    const words = contentWords(sentence.tokens);
    if (chosen.some((other) => containment(words, other.words) >= REPEAT)) continue;
    perPage.set(sentence.page, taken + 1);
    chosen.push({ ...sentence, words });
  }
  return chosen.map((sentence) => `- ${cite(sentence.text, sentence.page + 1)}`).join("\n");
}

/** `[n]` goes before the sentence's closing punctuation. */
function cite(text: string, n: number): string {
  const end = text.match(/[.!?…]+["'”’)]*$/);
  return end === null ? `${text} [${n}]` : `${text.slice(0, end.index)} [${n}]${end[0]}`;
}

/** Whole prose sentences of a page's Markdown or text, with inline markup and the page's own footnote marks removed. */
function sentencesOf(content: string): string[] {
  return (
    paragraphs(content)
      .flatMap((paragraph) => splitSentences(plainText(paragraph)))
      // Block markup at a sentence's start would turn its bullet into a heading, quote or nested list.
      .map((sentence) => sentence.replace(/^(?:(?:[#>*+|-]+|\d+[.)])\s+)+/, ""))
      .filter(
        (sentence) =>
          sentence.length >= MIN_SENTENCE_CHARS &&
          sentence.length <= MAX_SENTENCE_CHARS &&
          sentence.split(" ").length >= MIN_SENTENCE_WORDS &&
          /[.!?…]["'”’)]*$/.test(sentence),
      )
  );
}

/** Prose paragraphs: consecutive text lines joined, list items apart; headings, tables, HTML and code left out. */
function paragraphs(content: string): string[] {
  const found: string[] = [];
  let current: string[] = [];
  let fenced = false;
  const flush = () => {
    if (current.length > 0) found.push(current.join(" "));
    current = [];
  };
  for (const raw of content.split("\n")) {
    const line = raw.trim();
    if (/^(```|~~~)/.test(line)) {
      fenced = !fenced;
      flush();
    } else if (fenced || line === "" || /^(#|\||<|-{3,}$|={3,}$|\*{3,}$)/.test(line)) {
      flush();
    } else {
      const item = line.match(/^(?:[-*+•]|\d+[.)])\s+(.*)$/);
      if (item !== null) flush();
      current.push((item?.[1] ?? line).replace(/^(?:>\s*)+/, ""));
    }
  }
  flush();
  return found;
}

function plainText(markdown: string): string {
  return stripMarkers(
    markdown
      .replace(/!\[[^\]]*\]\([^)]*\)/g, "")
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .replace(/\*\*|__|`/g, ""),
  )
    .replace(/\s+/g, " ")
    .trim();
}

/** Okapi BM25 of each sentence (as a document) for the question's terms. */
function scoreBm25(sentences: Sentence[], terms: readonly string[]): void {
  if (sentences.length === 0 || terms.length === 0) return;
  const frequency = new Map<string, number>();
  for (const sentence of sentences) {
    for (const term of new Set(sentence.tokens)) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  }
  const total = sentences.length;
  const averageLength = sentences.reduce((sum, s) => sum + s.tokens.length, 0) / total;
  for (const sentence of sentences) {
    const counts = new Map<string, number>();
    for (const token of sentence.tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
    const norm = BM25_K1 * (1 - BM25_B + (BM25_B * sentence.tokens.length) / averageLength);
    let score = 0;
    for (const term of terms) {
      const tf = counts.get(term) ?? 0;
      if (tf === 0) continue;
      const df = frequency.get(term) ?? 0;
      const idf = Math.log(1 + (total - df + 0.5) / (df + 0.5));
      score += (idf * tf * (BM25_K1 + 1)) / (tf + norm);
    }
    sentence.score = Math.round(score * 1e9) / 1e9;
  }
}
