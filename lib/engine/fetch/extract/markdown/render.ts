/**
 * The collapsed tree → Markdown, in one pass with Turndown's conventions (ATX headings, `-   ` bullets,
 * fenced code with its language, `_em_`, `**strong**`, `~~del~~`, inline links made absolute, GFM tables)
 * so the output matches what Turndown + the GFM plugin produced, without their per-node DOM queries.
 */
import { renderTable, renderTableCell, renderTableRow, type Table } from "./tables";
import { BLOCK, type ElementLeaf, isBlankElement, type Leaf, type Place, textOf } from "./tree";

export interface Context {
  /** Base URL for links and images. */
  base: string;
  /** Inside <code>: text is literal, not escaped. */
  code: boolean;
  /** The nearest enclosing table that renders as a GFM table. */
  table: Table | undefined;
}

const REMOVED = new Set([
  "SCRIPT",
  "STYLE",
  "NOSCRIPT",
  "IFRAME",
  "FORM",
  "BUTTON",
  "SELECT",
  "SVG",
  "svg",
  "TEMPLATE",
]);
const GLOBAL_ESCAPES = /[\\*`[\]_]/g;
const LEADING_ESCAPE = /^(?:[-+=#~>]|\d)/;

/** The Markdown of an element's children, joined as Turndown joins them. */
export function renderChildren(parent: ElementLeaf, context: Context): string {
  const out = new Joined();
  const { children } = parent;
  let elementIndex = 0;
  for (let index = 0; index < children.length; index++) {
    const child = children[index];
    if (child === undefined || child.kind === "other") out.add("");
    else if (child.kind === "text") out.add(context.code ? child.text : escapeMarkdown(child.text));
    else out.add(renderElement(child, { parent, index, elementIndex: elementIndex++ }, context));
  }
  return out.value();
}

function renderElement(leaf: ElementLeaf, place: Place, context: Context): string {
  const [leading, trailing] = flankingWhitespace(leaf, place);
  const trim = leading !== "" || trailing !== "";
  let markdown: string;
  if (isBlankElement(leaf)) markdown = BLOCK.has(leaf.name) ? "\n\n" : "";
  else markdown = replacement(leaf, place, context, trim);
  return trim ? leading + markdown + trailing : markdown;
}

function content(leaf: ElementLeaf, context: Context, trim: boolean): string {
  const markdown = renderChildren(leaf, context);
  return trim ? markdown.trim() : markdown;
}

function replacement(leaf: ElementLeaf, place: Place, context: Context, trim: boolean): string {
  const { name, node } = leaf;
  switch (name) {
    case "IMG":
      return image(node, context.base);
    case "A": {
      const href = node.getAttribute("href");
      if (href !== null) return link(content(leaf, context, trim), href, context.base);
      break;
    }
    case "DEL":
    case "S":
    case "STRIKE":
      return `~~${content(leaf, context, trim)}~~`;
    case "TABLE":
      return renderTable(leaf, (table) => content(leaf, { ...context, table }, trim));
    case "THEAD":
    case "TBODY":
    case "TFOOT":
      // Blocks, but without blank lines: their rows are the table's lines.
      return content(leaf, context, trim);
    case "TR":
      return renderTableRow(leaf, place, context.table, content(leaf, context, trim));
    case "TH":
    case "TD":
      return renderTableCell(leaf, place, context.table, content(leaf, context, trim));
    case "CAPTION":
    case "COLGROUP":
    case "COL":
      return "";
    case "P":
      return `\n\n${content(leaf, context, trim)}\n\n`;
    case "BR":
      return "  \n";
    case "H1":
    case "H2":
    case "H3":
    case "H4":
    case "H5":
    case "H6":
      return `\n\n${"#".repeat(Number(name.charAt(1)))} ${content(leaf, context, trim)}\n\n`;
    case "BLOCKQUOTE":
      return `\n\n${trimNewlines(content(leaf, context, trim)).replace(/^/gm, "> ")}\n\n`;
    case "UL":
    case "OL":
      return list(place, content(leaf, context, trim));
    case "LI":
      return listItem(place, content(leaf, context, trim));
    case "PRE": {
      const first = leaf.children[0];
      if (first?.kind === "element" && first.name === "CODE") return fencedCode(first);
      break;
    }
    case "HR":
      return "\n\n* * *\n\n";
    case "EM":
    case "I": {
      const text = content(leaf, context, trim);
      return text.trim() === "" ? "" : `_${text}_`;
    }
    case "STRONG":
    case "B": {
      const text = content(leaf, context, trim);
      return text.trim() === "" ? "" : `**${text}**`;
    }
    case "CODE":
      // A lone <code> in <pre> is the fenced block's; any other is inline code.
      if (place.parent.name !== "PRE" || place.parent.children.length > 1)
        return inlineCode(content(leaf, { ...context, code: true }, trim));
      break;
  }
  if (REMOVED.has(name)) return "";
  const inner = content(leaf, context, trim);
  return BLOCK.has(name) ? `\n\n${inner}\n\n` : inner;
}

function link(text: string, href: string, base: string): string {
  const label = text.trim();
  if (label === "") return "";
  const url = absolute(href, base);
  return url === undefined || url.startsWith("javascript:") ? label : `[${label}](${url})`;
}

function image(node: Element, base: string): string {
  const src = absolute(node.getAttribute("src") ?? "", base);
  if (src === undefined || src.startsWith("data:")) return "";
  const alt = (node.getAttribute("alt") ?? "").replace(/[[\]\n]/g, " ").trim();
  return `![${alt}](${src})`;
}

function absolute(href: string, base: string): string | undefined {
  const trimmed = href.trim();
  if (trimmed === "" || trimmed.startsWith("#")) return undefined;
  try {
    return new URL(trimmed, base).toString();
  } catch {
    return undefined;
  }
}

/** A list that ends its item continues it on the next line; any other list is its own block. */
function list({ parent, index }: Place, inner: string): string {
  if (parent.name !== "LI") return `\n\n${inner}\n\n`;
  for (let i = index + 1; i < parent.children.length; i++)
    if (parent.children[i]?.kind === "element") return `\n\n${inner}\n\n`;
  return `\n${inner}`;
}

function listItem({ parent, index, elementIndex }: Place, inner: string): string {
  let prefix = "-   ";
  if (parent.name === "OL") {
    const start = parent.node.getAttribute("start");
    prefix = `${start ? Number(start) + elementIndex : elementIndex + 1}.  `;
  }
  const text = trimNewlines(inner) + (inner.endsWith("\n") ? "\n" : "");
  const indented = text.replace(/\n/g, `\n${" ".repeat(prefix.length)}`);
  return prefix + indented + (index < parent.children.length - 1 ? "\n" : "");
}

function fencedCode(code: ElementLeaf): string {
  const language = /language-(\S+)/.exec(code.node.getAttribute("class") ?? "")?.[1] ?? "";
  const text = textOf(code);
  let size = 3;
  for (const [fence] of text.matchAll(/^`{3,}/gm)) size = Math.max(size, fence.length + 1);
  const fence = "`".repeat(size);
  return `\n\n${fence}${language}\n${text.replace(/\n$/, "")}\n${fence}\n\n`;
}

function inlineCode(code: string): string {
  if (code === "") return "";
  const text = code.replace(/\r?\n|\r/g, " ");
  const pad = /^`|^ .*?[^ ].* $|`$/.test(text) ? " " : "";
  const runs = new Set(text.match(/`+/g));
  let delimiter = "`";
  while (runs.has(delimiter)) delimiter += "`";
  return delimiter + pad + text + pad + delimiter;
}

/** Backslash-escapes what Markdown would read as syntax, as Turndown's escape does. */
function escapeMarkdown(text: string): string {
  GLOBAL_ESCAPES.lastIndex = 0;
  if (!GLOBAL_ESCAPES.test(text) && !LEADING_ESCAPE.test(text)) return text;
  return text
    .replace(GLOBAL_ESCAPES, "\\$&")
    .replace(/^-/, "\\-")
    .replace(/^\+ /, "\\+ ")
    .replace(/^(=+)/, "\\$1")
    .replace(/^(#{1,6}) /, "\\$1 ")
    .replace(/^~~~/, "\\~~~")
    .replace(/^>/, "\\>")
    .replace(/^(\d+)\. /, "$1\\. ");
}

/**
 * Inline elements keep the whitespace at their text's edges outside their markup (`foo <b> bar</b>` →
 * `foo **bar**`), dropping an ASCII space a neighbour already provides.
 */
function flankingWhitespace(leaf: ElementLeaf, { parent, index }: Place): [string, string] {
  if (BLOCK.has(leaf.name)) return ["", ""];
  const text = textOf(leaf);
  const length = text.length;
  if (length === 0 || (!isSpace(text.charCodeAt(0)) && !isSpace(text.charCodeAt(length - 1))))
    return ["", ""];
  let start = 0;
  while (start < length && isSpace(text.charCodeAt(start))) start++;
  let end = length;
  if (start < length) while (isSpace(text.charCodeAt(end - 1))) end--;
  let leading = text.slice(0, start);
  let trailing = text.slice(end);
  const leadingAscii = asciiSpaces(leading, 1);
  if (leadingAscii > 0 && endsWithSpace(parent.children[index - 1])) leading = leading.slice(leadingAscii);
  const trailingAscii = asciiSpaces(trailing, -1);
  if (trailingAscii > 0 && startsWithSpace(parent.children[index + 1]))
    trailing = trailing.slice(0, trailing.length - trailingAscii);
  return [leading, trailing];
}

function endsWithSpace(sibling: Leaf | undefined): boolean {
  if (sibling === undefined || sibling.kind === "other") return false;
  if (sibling.kind === "element" && BLOCK.has(sibling.name)) return false;
  return textOf(sibling).endsWith(" ");
}

function startsWithSpace(sibling: Leaf | undefined): boolean {
  if (sibling === undefined || sibling.kind === "other") return false;
  if (sibling.kind === "element" && BLOCK.has(sibling.name)) return false;
  return textOf(sibling).startsWith(" ");
}

/** How many ASCII whitespace characters ([ \t\r\n]) the string starts (1) or ends (-1) with. */
function asciiSpaces(text: string, direction: 1 | -1): number {
  let count = 0;
  for (let i = direction === 1 ? 0 : text.length - 1; i >= 0 && i < text.length; i += direction) {
    const code = text.charCodeAt(i);
    if (code !== 32 && code !== 9 && code !== 10 && code !== 13) break;
    count++;
  }
  return count;
}

/** JavaScript's `\s`. */
function isSpace(code: number): boolean {
  return (
    (code >= 9 && code <= 13) ||
    code === 32 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

function trimNewlines(text: string): string {
  let start = 0;
  while (text.charCodeAt(start) === 10) start++;
  let end = text.length;
  while (end > start && text.charCodeAt(end - 1) === 10) end--;
  return text.slice(start, end);
}

/**
 * Turndown's join: adjacent pieces are separated by the larger of the newline runs at their touching
 * edges, capped at two (one blank line). Only the newlines at the very end are kept uncapped.
 */
class Joined {
  private body = "";
  private newlines = 0;

  add(piece: string): void {
    let lead = 0;
    while (piece.charCodeAt(lead) === 10) lead++;
    const separator = Math.min(2, Math.max(this.newlines, lead));
    if (lead === piece.length) {
      this.newlines = separator;
      return;
    }
    let end = piece.length;
    while (piece.charCodeAt(end - 1) === 10) end--;
    const core = lead === 0 && end === piece.length ? piece : piece.slice(lead, end);
    this.body += separator === 0 ? core : separator === 1 ? `\n${core}` : `\n\n${core}`;
    this.newlines = piece.length - end;
  }

  value(): string {
    return this.newlines === 0 ? this.body : this.body + "\n".repeat(this.newlines);
  }
}
