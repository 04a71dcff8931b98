/**
 * The simple HTML both converters write (headings, paragraphs, nested lists, tables, links). It is the
 * document's format=html rendering and the input of the same Markdown writer web pages go through, so
 * escaping, links and GFM tables come out exactly as they do for HTML.
 */

/** What a converter makes of a document's main part. */
export interface ConvertedDocument {
  html: string;
  /** A title from the content (first heading, first slide title) for documents whose properties lack one. */
  title?: string;
  /** Presentations: the slide count. */
  slides?: number;
}

export interface ListItem {
  /** 0 for a top-level item. */
  level: number;
  html: string;
}

export interface TableCell {
  html: string;
  /** Grid columns the cell spans. */
  span: number;
}

const HTML_SPECIAL = /[&<>"]/g;
const HTML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
const MAX_COLUMNS = 63;
const LINKABLE = /^(https?:|mailto:)/i;
const ESCAPED = /&(amp|lt|gt|quot);/g;
const UNESCAPED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"' };

export function escapeHtml(text: string): string {
  return text.replace(HTML_SPECIAL, (char) => HTML_ESCAPES[char] ?? char);
}

/** The text of HTML written here (tags dropped, escapes undone): titles taken from headings. */
export function htmlToText(html: string): string {
  return html
    .replace(/<br>/g, " ")
    .replace(/<[^>]*>/g, "")
    .replace(ESCAPED, (_, name: string) => UNESCAPED[name] ?? "")
    .replace(/\s+/g, " ")
    .trim();
}

/** A link to a web or mail address; any other target (javascript:, file:, a bookmark) leaves the text alone. */
export function link(html: string, href: string | undefined): string {
  if (href === undefined || html === "" || !LINKABLE.test(href.trim())) return html;
  return `<a href="${escapeHtml(href.trim())}">${html}</a>`;
}

/** Blocks in order; consecutive list items become one (nested) list. */
export class HtmlBlocks {
  private html = "";
  private items: ListItem[] = [];

  /** `tag` is p or h1–h6; an empty paragraph is dropped. */
  paragraph(html: string, tag = "p"): void {
    if (html.trim() === "") return;
    this.block(`<${tag}>${html}</${tag}>`);
  }

  listItem(item: ListItem): void {
    if (item.html.trim() !== "") this.items.push(item);
  }

  /** A finished block (a table, a slide's section). */
  block(html: string): void {
    this.endList();
    this.html += html;
  }

  toString(): string {
    this.endList();
    return this.html;
  }

  private endList(): void {
    if (this.items.length === 0) return;
    this.html += nestedList(this.items);
    this.items = [];
  }
}

/** A list level attribute (w:ilvl@w:val, a:pPr@lvl); absent or unreadable is the top level. */
export function listLevel(value: string | undefined): number {
  const level = Number(value ?? 0);
  return Number.isInteger(level) && level > 0 ? level : 0;
}

/** A column span attribute (w:gridSpan@w:val, a:tc@gridSpan), within Word's 63-column table limit. */
export function columnSpan(value: string | undefined): number {
  const span = Number(value ?? 1);
  return Number.isInteger(span) && span > 1 ? Math.min(span, MAX_COLUMNS) : 1;
}

/** A level deeper than the previous item's plus one is treated as one deeper: lists cannot skip levels. */
function nestedList(items: readonly ListItem[]): string {
  let html = "";
  let depth = -1;
  for (const item of items) {
    const level = Math.min(Math.max(item.level, 0), depth + 1);
    if (level > depth) html += "<ul>";
    else {
      html += "</li>";
      for (; depth > level; depth--) html += "</ul></li>";
    }
    depth = level;
    html += `<li>${item.html}`;
  }
  for (; depth >= 0; depth--) html += "</li></ul>";
  return html;
}

/** The first row is the header row, as GFM tables need one. */
export function table(rows: readonly (readonly TableCell[])[]): string {
  const body = rows
    .filter((row) => row.length > 0)
    .map((row, index) => {
      const tag = index === 0 ? "th" : "td";
      const cells = row.map(({ html, span }) => {
        const colspan = span > 1 ? ` colspan="${span}"` : "";
        return `<${tag}${colspan}>${html}</${tag}>`;
      });
      return `<tr>${cells.join("")}</tr>`;
    });
  return body.length === 0 ? "" : `<table>${body.join("")}</table>`;
}
