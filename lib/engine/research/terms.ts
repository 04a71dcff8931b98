/** The words of a research question that carry its meaning, for query variants and sentence scoring. */
import { contentWords, tokenize } from "@/lib/engine/search/text";

/** Question scaffolding the search stopwords keep ("how does X work" is about X). */
const QUESTION_WORDS = new Set("about can could did do does explain should tell would".split(" "));

/** Content words of the question, in order of first appearance. */
export function questionTerms(question: string): string[] {
  return [...contentWords(tokenize(question))].filter((word) => !QUESTION_WORDS.has(word));
}
