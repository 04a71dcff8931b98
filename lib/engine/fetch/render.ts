/** The winning document in the requested format, cut to `max_chars` with an honest marker. */
import { markdownToText } from "./extract/markdown";
import type { FetchedDocument, FetchFormat } from "./types";

export interface Rendered {
  content: string;
  /** The format actually delivered: html falls back to markdown when the source had no HTML. */
  format: FetchFormat;
  truncated: boolean;
  total_chars: number;
}

export function renderContent(document: FetchedDocument, format: FetchFormat, maxChars: number): Rendered {
  const [full, delivered] = inFormat(document, format);
  if (full.length <= maxChars) {
    return { content: full, format: delivered, truncated: false, total_chars: full.length };
  }
  return {
    content: cutWithMarker(full, maxChars, full.length),
    format: delivered,
    truncated: true,
    total_chars: full.length,
  };
}

function inFormat(document: FetchedDocument, format: FetchFormat): [string, FetchFormat] {
  if (format === "text") return [markdownToText(document.markdown), "text"];
  if (format === "html" && document.html) return [document.html, "html"];
  return [document.markdown, "markdown"];
}

/** The first `max` characters of a text of `total` (possibly cut already), with an honest marker. */
export function cutWithMarker(text: string, max: number, total: number, why = ""): string {
  return `${cut(text, max)}\n\n[… truncated${why}: ${total - max} more characters; showing ${max} of ${total}]`;
}

/** At most `max` characters, ending at a paragraph, line or word break when one is near. */
function cut(text: string, max: number): string {
  return text.slice(0, breakAt(text, max)).trimEnd();
}

/**
 * Where to end a piece of at most `max` characters of `text`: after the last paragraph break in its last
 * fifth, else the last line break there, else the last space; never inside a surrogate pair. The piece
 * keeps the break, so consecutive pieces concatenate to the text (fetch's pages).
 */
export function breakAt(text: string, max: number): number {
  if (text.length <= max) return text.length;
  const slice = text.slice(0, max);
  const floor = max * 0.8;
  for (const separator of ["\n\n", "\n", " "]) {
    const at = slice.lastIndexOf(separator);
    if (at >= floor) return at + separator.length;
  }
  const code = text.charCodeAt(max - 1);
  return code >= 0xd800 && code <= 0xdbff ? max - 1 : max;
}
