/**
 * The search that stands in for find-similar where no provider offers it: the page's title and the words
 * its text uses most, as one query. Term extraction is the research planner's (questionTerms); digits-only
 * words say little about a topic and are left out.
 */
import { questionTerms } from "@/lib/engine/research/terms";
import { tokenize } from "@/lib/engine/search/text";

/** A title's first words: long titles carry a site name and slogans after what matters. */
const TITLE_WORDS = 12;
/** Key terms added to the title (fewer when the title already holds them). */
const KEY_TERMS = 6;
/** How much of the page's text is read for its key terms: the opening says what the page is about. */
const TEXT_CHARS = 20_000;

export function similarQuery(page: { title: string; text: string }): string {
  const title = page.title
    .replace(/\p{Cc}/gu, " ")
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, TITLE_WORDS)
    .join(" ");
  const text = page.text.slice(0, TEXT_CHARS);
  const inTitle = new Set(questionTerms(title));
  const counts = new Map<string, number>();
  for (const word of questionTerms(text)) counts.set(word, 0);
  for (const word of tokenize(text)) {
    const count = counts.get(word);
    if (count !== undefined) counts.set(word, count + 1);
  }
  const keyTerms = [...counts]
    .filter(([word]) => !inTitle.has(word) && !/^\d+$/.test(word))
    // Stable sort: equal counts keep their first appearance's order.
    .sort((a, b) => b[1] - a[1])
    .slice(0, KEY_TERMS)
    .map(([word]) => word);
  return [title, ...keyTerms].filter(Boolean).join(" ");
}
