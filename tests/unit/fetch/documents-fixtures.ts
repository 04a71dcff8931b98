/**
 * DOCX and PPTX packages built in memory (fflate's zipSync over hand-written OOXML parts), with the
 * namespaces, relationships and content types Word and PowerPoint write.
 */
import { strToU8, type Zippable, zipSync } from "fflate";

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const R = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const A = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';
const P = 'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
const PACKAGE_REL = "http://schemas.openxmlformats.org/package/2006/relationships";
const DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

export type Parts = Record<string, string | Uint8Array>;

/** Level 1: the zip-bomb fixtures compress tens of megabytes, and nothing here needs a smaller archive. */
export function zipParts(parts: Parts): Buffer {
  const files: Zippable = {};
  for (const [name, content] of Object.entries(parts))
    files[name] = typeof content === "string" ? strToU8(content) : content;
  return Buffer.from(zipSync(files, { level: 1 }));
}

interface Relationship {
  id: string;
  type: string;
  target: string;
  external?: boolean;
}

function relationships(list: readonly Relationship[]): string {
  const items = list.map(
    ({ id, type, target, external }) =>
      `<Relationship Id="${id}" Type="${type.startsWith("http") ? type : `${REL}/${type}`}" Target="${target}"${external ? ' TargetMode="External"' : ""}/>`,
  );
  return `${DECLARATION}<Relationships xmlns="${PACKAGE_REL}">${items.join("")}</Relationships>`;
}

function contentTypes(overrides: Record<string, string>): string {
  const items = Object.entries(overrides).map(
    ([part, type]) => `<Override PartName="${part}" ContentType="${type}"/>`,
  );
  return `${DECLARATION}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${items.join("")}</Types>`;
}

function coreProperties(title: string, creator: string): string {
  return `${DECLARATION}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${title}</dc:title><dc:creator>${creator}</dc:creator></cp:coreProperties>`;
}

/** A paragraph of runs (each a string, split to test run joining), with optional paragraph properties. */
export function wp(runs: string | readonly string[], properties = ""): string {
  const list = typeof runs === "string" ? [runs] : runs;
  const text = list.map((run) => `<w:r><w:t xml:space="preserve">${run}</w:t></w:r>`).join("");
  return `<w:p>${properties ? `<w:pPr>${properties}</w:pPr>` : ""}${text}</w:p>`;
}

export const style = (id: string) => `<w:pStyle w:val="${id}"/>`;
export const numbered = (level: number) =>
  `<w:numPr><w:ilvl w:val="${level}"/><w:numId w:val="1"/></w:numPr>`;

export function wordTable(rows: readonly (readonly string[])[]): string {
  const cells = (row: readonly string[]) => row.map((text) => `<w:tc>${wp(text)}</w:tc>`).join("");
  return `<w:tbl><w:tblPr/><w:tblGrid/>${rows.map((row) => `<w:tr>${cells(row)}</w:tr>`).join("")}</w:tbl>`;
}

export interface DocxOptions {
  /** The body's XML (paragraphs, tables). */
  body: string;
  title?: string;
  /** Extra entries of word/_rels/document.xml.rels (the styles relationship is always there). */
  links?: readonly Relationship[];
  /** Paragraph styles in word/styles.xml, as <w:style> elements. */
  styles?: string;
  /** Extra parts, or overrides of the generated ones. */
  extra?: Parts;
}

export function parts(options: DocxOptions): Parts {
  return {
    "[Content_Types].xml": contentTypes({
      "/word/document.xml":
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
      "/word/styles.xml": "application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml",
      "/docProps/core.xml": "application/vnd.openxmlformats-package.core-properties+xml",
    }),
    "_rels/.rels": relationships([
      { id: "rId1", type: "officeDocument", target: "word/document.xml" },
      {
        id: "rId2",
        type: `${PACKAGE_REL}/metadata/core-properties`,
        target: "docProps/core.xml",
      },
    ]),
    "docProps/core.xml": coreProperties(options.title ?? "", "Ada Lovelace"),
    "word/_rels/document.xml.rels": relationships([
      { id: "rIdStyles", type: "styles", target: "styles.xml" },
      ...(options.links ?? []),
    ]),
    "word/styles.xml": `${DECLARATION}<w:styles ${W}>${options.styles ?? ""}</w:styles>`,
    "word/document.xml": `${DECLARATION}<w:document ${W} ${R}><w:body>${options.body}<w:sectPr/></w:body></w:document>`,
    ...options.extra,
  };
}

export const docx = (options: DocxOptions) => zipParts(parts(options));

/** A slide's shape: a placeholder (`type` or "obj" for a content one) or a plain text box (no type). */
export function shape(paragraphs: readonly string[], placeholder?: { type?: string; idx?: number }): string {
  const ph =
    placeholder === undefined
      ? ""
      : `<p:ph${placeholder.type ? ` type="${placeholder.type}"` : ""}${placeholder.idx ? ` idx="${placeholder.idx}"` : ""}/>`;
  return `<p:sp><p:nvSpPr><p:cNvPr id="2" name="Shape"/><p:cNvSpPr/><p:nvPr>${ph}</p:nvPr></p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/><a:lstStyle/>${paragraphs.join("")}</p:txBody></p:sp>`;
}

/** A DrawingML paragraph; `properties` are a:pPr's attributes and children, e.g. `lvl="1"`. */
export function ap(text: string, properties?: { attributes?: string; children?: string }, run = ""): string {
  const pPr = properties ? `<a:pPr ${properties.attributes ?? ""}>${properties.children ?? ""}</a:pPr>` : "";
  return `<a:p>${pPr}<a:r><a:rPr lang="en-US"${run ? "" : "/"}>${run ? `${run}</a:rPr>` : ""}<a:t>${text}</a:t></a:r></a:p>`;
}

export function slideTable(rows: readonly (readonly string[])[]): string {
  const cell = (text: string) => `<a:tc><a:txBody><a:bodyPr/>${ap(text)}</a:txBody><a:tcPr/></a:tc>`;
  return `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="9" name="Table"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblPr firstRow="1"/><a:tblGrid/>${rows.map((row) => `<a:tr h="370840">${row.map(cell).join("")}</a:tr>`).join("")}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`;
}

export interface SlideSpec {
  /** The p:spTree's shapes. */
  shapes: string;
  notes?: string;
  links?: readonly Relationship[];
}

/**
 * A presentation whose slide files are numbered in reverse of their order in p:sldIdLst, so a test can
 * tell presentation order from file order.
 */
export function pptx(slides: readonly SlideSpec[]): Buffer {
  const count = slides.length;
  const file = (index: number) => count - index;
  const result: Parts = {
    "[Content_Types].xml": contentTypes({
      "/ppt/presentation.xml":
        "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml",
    }),
    "_rels/.rels": relationships([{ id: "rId1", type: "officeDocument", target: "ppt/presentation.xml" }]),
    "ppt/_rels/presentation.xml.rels": relationships(
      slides.map((_, i) => ({ id: `rId${i + 10}`, type: "slide", target: `slides/slide${file(i)}.xml` })),
    ),
    "ppt/presentation.xml": `${DECLARATION}<p:presentation ${A} ${R} ${P}><p:sldMasterIdLst/><p:sldIdLst>${slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 10}"/>`).join("")}</p:sldIdLst><p:sldSz cx="9144000" cy="6858000"/></p:presentation>`,
  };
  slides.forEach((slide, i) => {
    const n = file(i);
    const links = [...(slide.links ?? [])];
    if (slide.notes !== undefined) {
      links.push({ id: "rIdNotes", type: "notesSlide", target: `../notesSlides/notesSlide${n}.xml` });
      result[`ppt/notesSlides/notesSlide${n}.xml`] =
        `${DECLARATION}<p:notes ${A} ${R} ${P}><p:cSld><p:spTree><p:nvGrpSpPr/><p:grpSpPr/>${shape([], { type: "sldImg" })}${shape([ap(slide.notes)], { type: "body", idx: 1 })}</p:spTree></p:cSld></p:notes>`;
    }
    result[`ppt/slides/_rels/slide${n}.xml.rels`] = relationships(links);
    result[`ppt/slides/slide${n}.xml`] =
      `${DECLARATION}<p:sld ${A} ${R} ${P}><p:cSld><p:spTree><p:nvGrpSpPr/><p:grpSpPr/>${slide.shapes}</p:spTree></p:cSld></p:sld>`;
  });
  return zipParts(result);
}
