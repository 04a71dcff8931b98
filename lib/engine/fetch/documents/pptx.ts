/**
 * PresentationML (ECMA-376 Part 1, §19) → simple HTML, slide by slide in presentation order
 * (p:sldIdLst → the presentation part's relationships). Each slide is a "Slide N: <title>" heading (the
 * title or ctrTitle placeholder's text), then its shapes in document order (groups and
 * mc:AlternateContent read through): text boxes as paragraphs, DrawingML tables (a:tbl in a graphic
 * frame) as tables, then the speaker notes (the notes slide's body placeholder) under "Notes".
 * Bullets: body and content placeholders inherit them from the master unless a:buNone says otherwise;
 * other text boxes have them only when the paragraph says so (a:buChar, a:buAutoNum); a:pPr@lvl nests.
 * Slide numbers, dates, headers and footers are left out. Links: a:hlinkClick r:id → the slide's
 * relationships.
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
import { child, childElements, children, ownText, path, type XmlElement } from "./xml";

type Links = ReadonlyMap<string, Relationship>;
/** When a paragraph is a list item: by placeholder default, only when it says so, or never (table cells). */
type Bullets = "placeholder" | "explicit" | "none";

const TITLE_PLACEHOLDERS = new Set(["title", "ctrTitle"]);
const CHROME_PLACEHOLDERS = new Set(["sldNum", "dt", "ftr", "hdr", "sldImg"]);
const BULLETED_PLACEHOLDERS = new Set(["body", "obj"]);
/** The type a p:ph without one has (CT_Placeholder's default). */
const DEFAULT_PLACEHOLDER = "obj";

export function pptxToHtml(pkg: OfficePackage, mainPart: string): ConvertedDocument {
  const links = pkg.relationships(mainPart);
  const slideParts = children(child(pkg.part(mainPart), "p:sldIdLst"), "p:sldId").flatMap((entry) => {
    const slide = links.get(entry.attributes["r:id"] ?? "");
    return slide?.kind === "slide" && !slide.external ? [slide.target] : [];
  });
  const out = new HtmlBlocks();
  let firstTitle: string | undefined;
  slideParts.forEach((part, index) => {
    const { title, body } = readSlide(pkg, part);
    if (title !== "") firstTitle ??= htmlToText(title);
    out.block(`<h2>Slide ${index + 1}${title === "" ? "" : `: ${title}`}</h2>${body}`);
  });
  const converted: ConvertedDocument = { html: out.toString(), slides: slideParts.length };
  if (firstTitle) converted.title = firstTitle;
  return converted;
}

function readSlide(pkg: OfficePackage, part: string): { title: string; body: string } {
  const links = pkg.relationships(part);
  const out = new HtmlBlocks();
  let title = "";
  for (const shape of shapesOf(pkg.part(part))) {
    if (shape.name === "p:graphicFrame") {
      const drawingTable = path(shape, "a:graphic", "a:graphicData", "a:tbl");
      if (drawingTable !== undefined) out.block(slideTable(drawingTable, links));
      continue;
    }
    const type = placeholderType(shape);
    if (type !== undefined && CHROME_PLACEHOLDERS.has(type)) continue;
    if (type !== undefined && TITLE_PLACEHOLDERS.has(type) && title === "") {
      title = paragraphsOf(shape)
        .map((p) => paragraphHtml(p, links))
        .filter((html) => html !== "")
        .join(" ");
      continue;
    }
    const bullets = type !== undefined && BULLETED_PLACEHOLDERS.has(type) ? "placeholder" : "explicit";
    textBody(paragraphsOf(shape), links, bullets, out);
  }
  const notes = speakerNotes(pkg, pkg.related(part, "notesSlide"));
  if (notes !== "") out.block(`<h3>Notes</h3>${notes}`);
  return { title, body: out.toString() };
}

function speakerNotes(pkg: OfficePackage, notesPart: string | undefined): string {
  if (notesPart === undefined) return "";
  const links = pkg.relationships(notesPart);
  const out = new HtmlBlocks();
  for (const shape of shapesOf(pkg.part(notesPart)))
    if (placeholderType(shape) === "body") textBody(paragraphsOf(shape), links, "explicit", out);
  return out.toString();
}

/** The shapes of a slide (or notes slide) tree in document order, groups flattened. */
function shapesOf(slide: XmlElement | undefined): XmlElement[] {
  return flattenShapes(path(slide, "p:cSld", "p:spTree"));
}

function flattenShapes(container: XmlElement | undefined): XmlElement[] {
  const shapes: XmlElement[] = [];
  for (const element of childElements(container)) {
    if (element.name === "p:sp" || element.name === "p:graphicFrame") shapes.push(element);
    else if (element.name === "p:grpSp") shapes.push(...flattenShapes(element));
    else if (element.name === "mc:AlternateContent") {
      const branch = child(element, "mc:Choice") ?? child(element, "mc:Fallback");
      shapes.push(...flattenShapes(branch));
    }
  }
  return shapes;
}

function placeholderType(shape: XmlElement): string | undefined {
  const placeholder = path(shape, "p:nvSpPr", "p:nvPr", "p:ph");
  return placeholder === undefined ? undefined : (placeholder.attributes.type ?? DEFAULT_PLACEHOLDER);
}

function paragraphsOf(shape: XmlElement): XmlElement[] {
  return children(child(shape, "p:txBody"), "a:p");
}

function textBody(paragraphs: readonly XmlElement[], links: Links, bullets: Bullets, out: HtmlBlocks): void {
  for (const p of paragraphs) {
    const html = paragraphHtml(p, links);
    const properties = child(p, "a:pPr");
    if (isBulleted(properties, bullets)) out.listItem({ level: listLevel(properties?.attributes.lvl), html });
    else out.paragraph(html);
  }
}

function isBulleted(properties: XmlElement | undefined, bullets: Bullets): boolean {
  if (bullets === "none" || child(properties, "a:buNone") !== undefined) return false;
  const explicit =
    child(properties, "a:buChar") !== undefined || child(properties, "a:buAutoNum") !== undefined;
  return explicit || bullets === "placeholder";
}

/** A DrawingML paragraph's runs, line breaks and fields (a slide number, a date) as inline HTML. */
function paragraphHtml(p: XmlElement, links: Links): string {
  let html = "";
  for (const node of childElements(p)) {
    if (node.name === "a:br") html += "<br>";
    else if (node.name === "a:r" || node.name === "a:fld") {
      const text = escapeHtml(ownText(child(node, "a:t")));
      html += link(text, externalTarget(links, path(node, "a:rPr", "a:hlinkClick")?.attributes["r:id"]));
    }
  }
  return html.trim();
}

function slideTable(drawingTable: XmlElement, links: Links): string {
  const rows = children(drawingTable, "a:tr").map((tr) =>
    children(tr, "a:tc")
      // A cell covered by a horizontal merge is part of its origin's gridSpan.
      .filter((tc) => !isOn(tc.attributes.hMerge))
      .map((tc): TableCell => {
        const out = new HtmlBlocks();
        if (!isOn(tc.attributes.vMerge)) textBody(children(child(tc, "a:txBody"), "a:p"), links, "none", out);
        return { html: out.toString(), span: columnSpan(tc.attributes.gridSpan) };
      }),
  );
  return table(rows);
}

function isOn(value: string | undefined): boolean {
  return value === "1" || value === "true";
}
