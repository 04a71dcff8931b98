/**
 * Tables as the GFM plugin for Turndown wrote them: a header row with a divider (alignment from the
 * columns' `align` or `text-align` votes; an empty header when the table has none), cells trimmed,
 * padded to three characters and `|`-escaped. Tables holding lists, headings or quotes stay HTML
 * (whitespace collapsed; without the plugin's Joplin-specific wrapper div);
 * single-cell tables and layout tables holding tables are rendered cell by cell, as plain blocks.
 */
import { styleValue } from "@/lib/engine/fetch/extract/dom";
import type { ElementLeaf, Leaf, Place } from "./tree";
import { textOf } from "./tree";

export interface Table {
  leaf: ElementLeaf;
  rows: ElementLeaf[];
  /** Not a GFM table: its cells render one after another. */
  skipped: boolean;
}

type Alignment = "left" | "right" | "center" | "";

// biome-ignore format: a word list
const HTML_ONLY_CONTENT = new Set(["UL", "OL", "H1", "H2", "H3", "H4", "H5", "H6", "HR", "BLOCKQUOTE"]);
const NESTED_TABLE = new Set(["TABLE"]);
const SECTIONS = new Set(["THEAD", "TBODY", "TFOOT"]);
const HTML_SPECIAL = /[<>&\xA0]/g;
const HTML_ESCAPES: Record<string, string> = { "<": "&lt;", ">": "&gt;", "&": "&amp;", "\xA0": "&#160;" };
const BORDERS: Record<Alignment, string> = { left: ":---", right: "---:", center: ":---:", "": "---" };

/** `render` renders the table's children with the table as their context. */
export function renderTable(leaf: ElementLeaf, render: (table: Table) => string): string {
  if (containsAny(leaf, HTML_ONLY_CONTENT)) return `\n\n${compactHtml(leaf)}\n\n`;
  const rows = rowsOf(leaf);
  const singleCell = rows.length === 1 && (rows[0]?.children.length ?? 0) <= 1;
  const table: Table = { leaf, rows, skipped: singleCell || containsAny(leaf, NESTED_TABLE) };
  const inner = render(table);
  if (table.skipped) return inner;

  const content = inner.replace(/\n+/g, "\n");
  const columns = columnCount(rows);
  let header = "";
  if (columns > 0 && !/\| :?---/.test(secondLine(content))) {
    header = `|${"     |".repeat(columns)}\n|`;
    for (let column = 0; column < columns; column++) header += ` ${border(rows, column)} |`;
  }
  const caption = captionOf(leaf);
  const captionText = caption === undefined ? "" : textOf(caption);
  return `\n\n${captionText ? `${captionText}\n\n` : ""}${(header + content).trimStart()}\n\n`;
}

export function renderTableRow(
  row: ElementLeaf,
  place: Place,
  table: Table | undefined,
  content: string,
): string {
  if (table === undefined || table.skipped) return content;
  let divider = "";
  if (isHeadingRow(row, place, table)) {
    const columns = columnCount(table.rows);
    for (let column = 0; column < columns; column++)
      divider += cell(border(table.rows, column), row.children[column], column);
  }
  return `\n${content}${divider ? `\n${divider}` : ""}`;
}

export function renderTableCell(
  leaf: ElementLeaf,
  place: Place,
  table: Table | undefined,
  content: string,
): string {
  return table === undefined || table.skipped ? content : cell(content, leaf, place.index);
}

function cell(content: string, leaf: Leaf | undefined, index: number): string {
  let text = content.trim().replace(/\n\r?/g, "<br>").replace(/\|+/g, "\\|").padEnd(3);
  if (leaf?.kind === "element") {
    const span = Number(leaf.node.getAttribute("colspan") ?? 1);
    for (let i = 1; i < span; i++) text += " |    ";
  }
  return `${index === 0 ? "| " : " "}${text} |`;
}

/** The first row of the head, or of the table or its first body when every cell is a <th>. */
function isHeadingRow(row: ElementLeaf, { parent, index }: Place, table: Table): boolean {
  if (parent.name === "THEAD") return true;
  if (index !== 0 || (parent.name !== "TABLE" && !isFirstBody(parent, table))) return false;
  return row.children.every((child) => child.kind === "element" && child.name === "TH");
}

function isFirstBody(section: ElementLeaf, table: Table): boolean {
  if (section.name !== "TBODY") return false;
  const position = table.leaf.children.indexOf(section);
  if (position < 0) return false;
  const previous = table.leaf.children[position - 1];
  return (
    previous === undefined || (previous.kind === "element" && previous.name === "THEAD" && previous.blank)
  );
}

/** The column's alignment by majority of its cells' votes; ties go to the first to lead. */
function border(rows: readonly ElementLeaf[], column: number): string {
  const votes: Record<Alignment, number> = { left: 0, right: 0, center: 0, "": 0 };
  let winner: Alignment = "";
  for (const row of rows) {
    const alignment = alignmentOf(row.children[column]);
    if (alignment === undefined) continue;
    votes[alignment]++;
    if (votes[alignment] > votes[winner]) winner = alignment;
  }
  return BORDERS[winner];
}

function alignmentOf(leaf: Leaf | undefined): Alignment | undefined {
  if (leaf === undefined) return undefined;
  if (leaf.kind !== "element") return "";
  const value = (leaf.node.getAttribute("align") || styleValue(leaf.node, "text-align") || "").toLowerCase();
  return value === "left" || value === "right" || value === "center" || value === "" ? value : undefined;
}

function rowsOf(table: ElementLeaf): ElementLeaf[] {
  const rows: ElementLeaf[] = [];
  for (const child of table.children) {
    if (child.kind !== "element") continue;
    if (child.name === "TR") rows.push(child);
    else if (SECTIONS.has(child.name))
      for (const row of child.children) if (row.kind === "element" && row.name === "TR") rows.push(row);
  }
  return rows;
}

function columnCount(rows: readonly ElementLeaf[]): number {
  let count = 0;
  for (const row of rows) count = Math.max(count, row.children.length);
  return count;
}

function secondLine(content: string): string {
  const text = content.trim();
  const first = text.indexOf("\n");
  if (first < 0) return text;
  const second = text.indexOf("\n", first + 1);
  return text.slice(first + 1, second < 0 ? undefined : second);
}

function containsAny(leaf: ElementLeaf, names: ReadonlySet<string>): boolean {
  for (const child of leaf.children)
    if (child.kind === "element" && (names.has(child.name) || containsAny(child, names))) return true;
  return false;
}

function captionOf(leaf: ElementLeaf): ElementLeaf | undefined {
  for (const child of leaf.children) {
    if (child.kind !== "element") continue;
    if (child.name === "CAPTION") return child;
    const nested = captionOf(child);
    if (nested !== undefined) return nested;
  }
  return undefined;
}

/** HTML of the collapsed snapshot: the table on a few lines rather than the page's indentation. */
function compactHtml(leaf: Leaf): string {
  if (leaf.kind === "text") return leaf.text.replace(HTML_SPECIAL, (char) => HTML_ESCAPES[char] ?? char);
  if (leaf.kind === "other") return "";
  // The element's own tags as linkedom writes them (attribute quoting, void elements).
  const shell = (leaf.node.cloneNode(false) as Element).outerHTML;
  const close = `</${leaf.node.localName}>`;
  if (!shell.endsWith(close)) return shell;
  let inner = "";
  for (const child of leaf.children) inner += compactHtml(child);
  return shell.slice(0, -close.length) + inner + close;
}
