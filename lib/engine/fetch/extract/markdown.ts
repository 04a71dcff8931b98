/**
 * HTML → Markdown, and (re-exported) Markdown → plain text for format=text.
 *
 * The writer (markdown/) follows Turndown + its GFM plugin's conventions (ATX headings, `-   ` bullets,
 * fenced code with its language, GFM tables and strikethrough, links and images made absolute) in one
 * pass over a snapshot of the DOM: Turndown cloned the tree and re-read text and child lists per node.
 */
import { parseDocument } from "./dom";
import { renderChildren } from "./markdown/render";
import { snapshot } from "./markdown/tree";

export { markdownToText } from "./markdown/plain-text";

const MAX_BLANK_LINES = /\n{3,}/g;

/** `base` resolves relative links and images; a node converts its children (any linkedom DOM). */
export function htmlToMarkdown(input: string | Element, base: string): string {
  const root = typeof input === "string" ? fragmentRoot(input) : input;
  const markdown = renderChildren(snapshot(root), { base, code: false, table: undefined });
  return markdown.replace(MAX_BLANK_LINES, "\n\n").trim();
}

/** linkedom parses a fragment without <html>/<body> into the document element, so wrap it. */
function fragmentRoot(html: string): Element {
  const document = parseDocument(/<body[\s>]/i.test(html) ? html : `<html><body>${html}</body></html>`);
  return document.body ?? document.documentElement;
}
