/**
 * Markdown → readable plain text (format=text, and the content checks on every fetch): markup removed,
 * link texts kept, paragraphs kept apart. Each pass runs only when the text holds the marker it needs
 * and table lines are handled one by one: on a 500 KB page the twelve full-text regex passes cost
 * more than the Markdown writer.
 */

interface Pass {
  /** Literals one of which the pattern needs; without any of them the pass is skipped. */
  markers: readonly string[];
  pattern: RegExp;
  replacement: string;
}

const BEFORE_TABLES: readonly Pass[] = [
  { markers: ["```"], pattern: /^```[^\n]*\n?/gm, replacement: "" },
  { markers: ["!["], pattern: /!\[([^\]]*)\]\([^)]*\)/g, replacement: "$1" },
  { markers: ["]("], pattern: /\[([^\]]*)\]\([^)]*\)/g, replacement: "$1" },
  { markers: ["#"], pattern: /^#{1,6}\s+/gm, replacement: "" },
  { markers: [">"], pattern: /^\s*>\s?/gm, replacement: "" },
];
const AFTER_TABLES: readonly Pass[] = [
  { markers: ["**", "__", "~~"], pattern: /(\*\*|__|~~)(.+?)\1/g, replacement: "$2" },
  { markers: ["`"], pattern: /`([^`\n]+)`/g, replacement: "$1" },
  { markers: [" \n", "\t\n"], pattern: /[ \t]+\n/g, replacement: "\n" },
  { markers: ["\n\n\n"], pattern: /\n{3,}/g, replacement: "\n\n" },
];
const TABLE_DIVIDER = /^\|?[ \t:|-]+\|[ \t:|-]*$/;
const TABLE_ROW = /^\|(.*)\|[ \t]*$/;

export function markdownToText(markdown: string): string {
  let text = runPasses(markdown, BEFORE_TABLES);
  if (text.includes("|")) text = tablesToText(text);
  return runPasses(text, AFTER_TABLES).trim();
}

function runPasses(text: string, passes: readonly Pass[]): string {
  let result = text;
  for (const { markers, pattern, replacement } of passes)
    if (markers.some((marker) => result.includes(marker))) result = result.replace(pattern, replacement);
  return result;
}

/** Divider lines dropped, rows' cells joined by two spaces; both rules are line-local. */
function tablesToText(text: string): string {
  let out = "";
  let copied = 0;
  for (let pipe = text.indexOf("|"); pipe !== -1; pipe = text.indexOf("|", copied)) {
    let start = pipe;
    while (start > 0 && !isLineBreak(text.charCodeAt(start - 1))) start--;
    let end = pipe;
    while (end < text.length && !isLineBreak(text.charCodeAt(end))) end++;
    out += text.slice(copied, start) + tableLine(text.slice(start, end));
    copied = end;
  }
  return out + text.slice(copied);
}

function tableLine(line: string): string {
  if (TABLE_DIVIDER.test(line)) return "";
  return line.replace(TABLE_ROW, (_row, cells: string) =>
    cells
      .split("|")
      .map((cell) => cell.trim())
      .join("  "),
  );
}

/** The line terminators of a multiline regex: \n, \r, U+2028, U+2029. */
function isLineBreak(code: number): boolean {
  return code === 10 || code === 13 || code === 0x2028 || code === 0x2029;
}
