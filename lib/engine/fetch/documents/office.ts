/**
 * Word and PowerPoint documents (DOCX, PPTX and their macro-enabled / slideshow siblings) → FetchedDocument.
 * The package's own relationships name the main part and its content type decides the converter, so a
 * document sniffed from bytes and one sent with its MIME type take the same path. The converters write
 * simple HTML, which is the format=html rendering and goes through the web pages' Markdown writer.
 *
 * Caps: the parts read (XML only; media are never inflated) share the decoded body cap of a web page,
 * and an archive with more than MAX_ARCHIVE_ENTRIES entries is refused. Encrypted documents (an OLE
 * compound file wrapping the package) and legacy .doc/.ppt files are refused as unsupported.
 */
import { UnsupportedContent } from "@/lib/engine/fetch/errors";
import { htmlToMarkdown } from "@/lib/engine/fetch/extract/markdown";
import type { FetchedDocument, PageMetadata } from "@/lib/engine/fetch/types";
import { docxToHtml } from "./docx";
import { OfficePackage } from "./package";
import { pptxToHtml } from "./pptx";
import { ZipArchive } from "./zip";

const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const PPTX_TYPE = "application/vnd.openxmlformats-officedocument.presentationml.presentation";
/** Far above a real document (a 500-slide deck with media has a few thousand parts). */
const MAX_ARCHIVE_ENTRIES = 10_000;

/** OLE2 compound file: an encrypted OOXML package, or a legacy binary .doc / .ppt / .xls. */
const COMPOUND_FILE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const NOT_OFFICE = "not a Word or PowerPoint document";

/** By the main part's content type: documents, templates, macro-enabled and slideshow variants alike. */
const CONVERTERS = [
  { main: /\.(wordprocessingml|ms-word)\.[\w.]+\.main\+xml$/i, contentType: DOCX_TYPE, convert: docxToHtml },
  {
    main: /\.(presentationml|ms-powerpoint)\.[\w.]+\.main\+xml$/i,
    contentType: PPTX_TYPE,
    convert: pptxToHtml,
  },
] as const;

export interface OfficeBody {
  body: Buffer;
  /** The MIME type the server sent, for messages: lowercased, without parameters. */
  mime: string;
  /** Base for relative links. */
  url: string;
  maxBytes: number;
}

export function documentFromOffice({ body, mime, url, maxBytes }: OfficeBody): FetchedDocument {
  if (body.subarray(0, COMPOUND_FILE_MAGIC.length).equals(COMPOUND_FILE_MAGIC)) {
    throw new UnsupportedContent(mime, "an encrypted Office document or a legacy binary .doc/.ppt/.xls file");
  }
  const pkg = new OfficePackage(ZipArchive.open(body, { maxBytes, maxEntries: MAX_ARCHIVE_ENTRIES }));
  const main = pkg.mainPart();
  if (main === undefined) throw new UnsupportedContent(mime || "application/zip", NOT_OFFICE);
  const converter = CONVERTERS.find(({ main: pattern }) => pattern.test(main.contentType));
  if (converter === undefined) {
    throw new UnsupportedContent(main.contentType.replace(/\.main\+xml$/i, "") || mime, NOT_OFFICE);
  }

  const converted = converter.convert(pkg, main.name);
  const properties = pkg.properties();
  const title = properties.title ?? converted.title;
  const metadata: PageMetadata = { content_type: converter.contentType };
  if (title) metadata.title = title;
  if (properties.creator) metadata.byline = properties.creator;
  if (properties.language) metadata.language = properties.language;
  if (converted.slides !== undefined) metadata.slides = converted.slides;
  else if (properties.pages) metadata.pages = properties.pages;
  const document: FetchedDocument = {
    markdown: htmlToMarkdown(converted.html, url),
    html: converted.html,
    metadata,
  };
  if (title) document.title = title;
  return document;
}
