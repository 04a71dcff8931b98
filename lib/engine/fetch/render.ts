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
  const marker = `\n\n[… truncated: ${full.length - maxChars} more characters; showing ${maxChars} of ${full.length}]`;
  return {
    content: cut(full, maxChars) + marker,
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

/** At most `max` characters, ending at a paragraph or line break when one is near. */
function cut(text: string, max: number): string {
  const slice = text.slice(0, max);
  const boundary = Math.max(slice.lastIndexOf("\n\n"), slice.lastIndexOf("\n"));
  return (boundary > max * 0.8 ? slice.slice(0, boundary) : slice).trimEnd();
}
