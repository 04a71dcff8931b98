/**
 * WordprocessingML (ECMA-376 Part 1, §17) → simple HTML: the body's paragraphs and tables in order.
 * - Headings: the paragraph style (w:pStyle) is Title or Heading 1–6, by id or by its name in
 *   styles.xml (ids are localised, names are not), or it or its style has an outline level (w:outlineLvl).
 *   Styles inherit through w:basedOn.
 * - Lists: paragraphs with numbering (w:numPr, own or from the style; numId 0 switches it off) are
 *   bullets nested by w:ilvl.
 * - Tables (w:tbl → w:tr → w:tc): cells span w:gridSpan columns; the continuation of a vertical merge
 *   is left empty. Inside cells, headings and list items are plain paragraphs, so the table stays GFM.
 * - Hyperlinks (w:hyperlink r:id) resolve through the document part's relationships; anchors stay text.
 * - Tracked changes read as accepted (w:ins kept, w:del dropped); field codes (w:instrText) are skipped
 *   and their results kept; content controls (w:sdt) are read through.
 */
import {
  type ConvertedDocument,
  columnSpan,
  escapeHtml,
  HtmlBlocks,
  htmlToText,
  link,
  listLevel,
  type TableCell,
  table,
} from "./html";
import { externalTarget, type OfficePackage, type Relationship } from "./package";
import { child, childElements, children, ownText, type XmlElement } from "./xml";

interface StyleFacts {
  heading?: number;
  list: boolean;
}

interface Context {
  styles: ReadonlyMap<string, StyleFacts>;
  links: ReadonlyMap<string, Relationship>;
  /** Inside a table cell: no headings or list items. */
  inCell: boolean;
  /** The first heading's text, the title of last resort. */
  firstHeading?: string;
}

/** Containers whose children belong to the enclosing flow (content controls, custom XML, insertions). */
const TRANSPARENT = new Set(["w:sdt", "w:sdtContent", "w:customXml", "w:ins", "w:moveTo", "w:smartTag"]);
const INLINE_TRANSPARENT = new Set([...TRANSPARENT, "w:fldSimple", "w:bdo", "w:dir"]);
const HEADING_ID = /^heading([1-9])$/i;
const HEADING_NAME = /^heading ([1-9])$/i;
const MAX_STYLE_DEPTH = 20;

export function docxToHtml(pkg: OfficePackage, mainPart: string): ConvertedDocument {
  const body = child(pkg.part(mainPart), "w:body");
  const context: Context = {
    styles: readStyles(pkg.part(pkg.related(mainPart, "styles"))),
    links: pkg.relationships(mainPart),
    inCell: false,
  };
  const html = blocks(body, context);
  return context.firstHeading === undefined ? { html } : { html, title: context.firstHeading };
}

function blocks(container: XmlElement | undefined, context: Context): string {
  const out = new HtmlBlocks();
  for (const element of flatten(container, TRANSPARENT)) {
    if (element.name === "w:tbl") out.block(wordTable(element, context));
    else if (element.name === "w:p") paragraph(element, context, out);
  }
  return out.toString();
}

function paragraph(p: XmlElement, context: Context, out: HtmlBlocks): void {
  const properties = child(p, "w:pPr");
  const style = styleFacts(context.styles, child(properties, "w:pStyle")?.attributes["w:val"]);
  const html = inline(p, context).trim();
  const heading = context.inCell ? undefined : (outlineHeading(properties) ?? style.heading);
  const level = context.inCell ? undefined : numberingLevel(child(properties, "w:numPr"), style);
  if (heading !== undefined) {
    context.firstHeading ??= htmlToText(html) || undefined;
    out.paragraph(html, `h${heading}`);
  } else if (level !== undefined) out.listItem({ level, html });
  else out.paragraph(html);
}

/** The list level of a numbered paragraph (w:ilvl, default 0); undefined when it is not numbered. */
function numberingLevel(numbering: XmlElement | undefined, style: StyleFacts): number | undefined {
  const numbered =
    numbering === undefined ? style.list : child(numbering, "w:numId")?.attributes["w:val"] !== "0";
  return numbered ? listLevel(child(numbering, "w:ilvl")?.attributes["w:val"]) : undefined;
}

function inline(element: XmlElement, context: Context): string {
  let html = "";
  for (const node of childElements(element)) {
    if (node.name === "w:r") html += run(node);
    else if (node.name === "w:hyperlink") html += hyperlink(node, context);
    else if (INLINE_TRANSPARENT.has(node.name)) html += inline(node, context);
  }
  return html;
}

function run(r: XmlElement): string {
  let html = "";
  for (const node of childElements(r)) {
    switch (node.name) {
      case "w:t":
        html += escapeHtml(ownText(node));
        break;
      case "w:tab":
      case "w:ptab":
        html += " ";
        break;
      case "w:br":
        // A page or column break is layout, not a line of the text.
        if (node.attributes["w:type"] === undefined || node.attributes["w:type"] === "textWrapping")
          html += "<br>";
        break;
      case "w:cr":
        html += "<br>";
        break;
      case "w:noBreakHyphen":
        html += "-";
        break;
    }
  }
  return html;
}

function hyperlink(element: XmlElement, context: Context): string {
  return link(inline(element, context), externalTarget(context.links, element.attributes["r:id"]));
}

function wordTable(tbl: XmlElement, context: Context): string {
  const cellContext: Context = { ...context, inCell: true };
  const rows = flatten(tbl, TRANSPARENT)
    .filter((element) => element.name === "w:tr")
    .map((tr) =>
      flatten(tr, TRANSPARENT)
        .filter((element) => element.name === "w:tc")
        .map((tc): TableCell => {
          const properties = child(tc, "w:tcPr");
          const merge = child(properties, "w:vMerge");
          const continued = merge !== undefined && merge.attributes["w:val"] !== "restart";
          return {
            html: continued ? "" : blocks(tc, cellContext),
            span: columnSpan(child(properties, "w:gridSpan")?.attributes["w:val"]),
          };
        }),
    );
  return table(rows);
}

/** A heading from the paragraph's own outline level (0–8; 9 is body text). */
function outlineHeading(properties: XmlElement | undefined): number | undefined {
  return outlineLevelToHeading(child(properties, "w:outlineLvl")?.attributes["w:val"]);
}

function outlineLevelToHeading(value: string | undefined): number | undefined {
  const level = Number(value ?? Number.NaN);
  return Number.isInteger(level) && level >= 0 && level < 9 ? Math.min(level + 1, 6) : undefined;
}

/** What a paragraph style means here; a style missing from styles.xml is judged by its id alone. */
function styleFacts(styles: ReadonlyMap<string, StyleFacts>, id: string | undefined): StyleFacts {
  if (id === undefined) return { list: false };
  return styles.get(id) ?? { heading: headingFromName(id, HEADING_ID), list: false };
}

function headingFromName(name: string | undefined, pattern: RegExp): number | undefined {
  if (name === undefined) return undefined;
  if (name.toLowerCase() === "title") return 1;
  const level = pattern.exec(name)?.[1];
  return level === undefined ? undefined : Math.min(Number(level), 6);
}

/** styles.xml → facts per paragraph style id, inheritance (w:basedOn) resolved. */
function readStyles(styles: XmlElement | undefined): Map<string, StyleFacts> {
  const declared = new Map<string, XmlElement>();
  for (const style of children(styles, "w:style")) {
    const id = style.attributes["w:styleId"];
    if (id !== undefined && style.attributes["w:type"] === "paragraph") declared.set(id, style);
  }
  const facts = new Map<string, StyleFacts>();
  for (const id of declared.keys()) facts.set(id, resolveStyle(declared, id));
  return facts;
}

function resolveStyle(declared: ReadonlyMap<string, XmlElement>, id: string): StyleFacts {
  const facts: StyleFacts = { list: false };
  let listDecided = false;
  let current: string | undefined = id;
  for (let depth = 0; current !== undefined && depth < MAX_STYLE_DEPTH; depth++) {
    const style = declared.get(current);
    if (style === undefined) break;
    const properties = child(style, "w:pPr");
    facts.heading ??=
      headingFromName(current, HEADING_ID) ??
      headingFromName(child(style, "w:name")?.attributes["w:val"], HEADING_NAME) ??
      outlineHeading(properties);
    const numbering = child(properties, "w:numPr");
    if (!listDecided && numbering !== undefined) {
      facts.list = child(numbering, "w:numId")?.attributes["w:val"] !== "0";
      listDecided = true;
    }
    current = child(style, "w:basedOn")?.attributes["w:val"];
  }
  return facts;
}

/** The element's children with transparent containers replaced by their own children, recursively. */
function flatten(element: XmlElement | undefined, transparent: ReadonlySet<string>): XmlElement[] {
  const flat: XmlElement[] = [];
  for (const node of childElements(element)) {
    if (transparent.has(node.name)) flat.push(...flatten(node, transparent));
    else flat.push(node);
  }
  return flat;
}
