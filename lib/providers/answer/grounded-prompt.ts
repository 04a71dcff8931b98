/**
 * Prompts for answer providers that have no web access of their own (Gemini via url_context, any
 * OpenAI-compatible model): the caller's web results go into the prompt as numbered sources, and the
 * model is asked to cite them as [n], which citeNumbered then maps back to URLs.
 */
import type { Citation, GroundingSource } from "@/lib/engine/answer/types";
import {
  appendCitations,
  citeNumbered,
  markdownLinkCitations,
  numberFromOne,
  type SourceRef,
} from "./citations";

/** Gemini's url_context reads at most 20 URLs; ten keep prompts short and answers focused. */
const MAX_GROUNDING_SOURCES = 10;
const MAX_SNIPPET_CHARS = 500;
/** Titles are cut and longer URLs left out so that a prompt, and so a call billed by tokens, has a ceiling. */
const MAX_TITLE_CHARS = 300;
const MAX_URL_CHARS = 2_048;

const GROUNDED_INSTRUCTIONS =
  "Answer the user's question accurately and concisely in Markdown. Base the answer on the numbered " +
  "sources provided; cite them inline as [n] right after the statement they support. If the sources " +
  "do not settle the question, say so.";
const UNGROUNDED_INSTRUCTIONS =
  "Answer the user's question accurately and concisely in Markdown. Link a source as a Markdown link " +
  "only when you are certain of its URL.";

export interface GroundedPrompt {
  system: string;
  user: string;
  /** The sources as numbered in the prompt. */
  sources: GroundingSource[];
}

export function groundedPrompt(query: string, grounding: readonly GroundingSource[]): GroundedPrompt {
  const sources = grounding
    .filter((source) => source.url.length <= MAX_URL_CHARS)
    .slice(0, MAX_GROUNDING_SOURCES);
  if (sources.length === 0) return { system: UNGROUNDED_INSTRUCTIONS, user: query, sources };
  const listed = sources.map(
    (source, i) =>
      `[${i + 1}] ${source.title.slice(0, MAX_TITLE_CHARS)}\n${source.url}\n${source.snippet.slice(0, MAX_SNIPPET_CHARS)}`,
  );
  return {
    system: GROUNDED_INSTRUCTIONS,
    user: `Sources:\n\n${listed.join("\n\n")}\n\nQuestion: ${query}`,
    sources,
  };
}

/** The longest grounded prompt for `query`, in characters: every source at its longest. */
export function groundedPromptCeilingChars(query: string): number {
  const longest: GroundingSource = {
    title: "x".repeat(MAX_TITLE_CHARS),
    url: "x".repeat(MAX_URL_CHARS),
    snippet: "x".repeat(MAX_SNIPPET_CHARS),
  };
  const prompt = groundedPrompt(
    query,
    Array.from({ length: MAX_GROUNDING_SOURCES }, () => longest),
  );
  return Math.max(prompt.system.length, UNGROUNDED_INSTRUCTIONS.length) + prompt.user.length;
}

/** Citations of a grounded answer: its [n] markers over the prompt's sources, then its Markdown links and `extra`. */
export function citeGrounded(
  answer: string,
  prompt: GroundedPrompt,
  extra: readonly SourceRef[] = [],
): { answer: string; citations: Citation[] } {
  const numbered = citeNumbered(answer, numberFromOne(prompt.sources));
  return {
    answer: numbered.answer,
    citations: appendCitations(numbered.citations, [...markdownLinkCitations(answer), ...extra]),
  };
}
