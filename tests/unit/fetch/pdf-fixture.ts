import { deflateSync } from "node:zlib";

/** A small valid PDF (pages of Helvetica text, a title in /Info), built with a correct xref table. */
export function makePdf(pages: readonly string[][], title: string): Buffer {
  // Objects: 1 catalog, 2 page tree, 3 font, then a page and its content stream per page, then /Info.
  const pageId = (index: number) => 4 + index * 2;
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${pages.map((_, i) => `${pageId(i)} 0 R`).join(" ")}] /Count ${pages.length} >>`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  pages.forEach((lines, i) => {
    const text = lines.map((line, n) => `BT /F1 12 Tf 72 ${720 - n * 16} Td (${line}) Tj ET`).join("\n");
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${pageId(i) + 1} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`,
      `<< /Length ${Buffer.byteLength(text)} >>\nstream\n${text}\nendstream`,
    );
  });
  objects.push(`<< /Title (${title}) >>`);
  return Buffer.from(withXref(objects, objects.length), "latin1");
}

/** Objects numbered from 1, with the xref table and trailer (naming /Info when given); latin1 text. */
function withXref(objects: readonly string[], info?: number): string {
  let body = "%PDF-1.4\n";
  const offsets = objects.map((object, i) => {
    const offset = Buffer.byteLength(body, "latin1");
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
    return offset;
  });
  const xref = Buffer.byteLength(body, "latin1");
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, "0")} 00000 n \n`;
  const infoEntry = info === undefined ? "" : ` /Info ${info} 0 R`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${infoEntry} >>\nstartxref\n${xref}\n%%EOF\n`;
  return body;
}

export interface DeflatedPdf {
  /** The content stream drawn on every page, stored with /FlateDecode. */
  content: Buffer;
  /** Pages in the document, all the same page object. */
  pages?: number;
  /** How many times each page's /Contents lists the stream (pdf.js decodes it every time). */
  repeat?: number;
}

/** A PDF drawing one compressed content stream: a small file that can inflate to any size (PDF bombs). */
export function makeDeflatedPdf({ content, pages = 1, repeat = 1 }: DeflatedPdf): Buffer {
  const stream = deflateSync(content, { level: 9 });
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [${"4 0 R ".repeat(pages)}] /Count ${pages} >>`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents [${"5 0 R ".repeat(repeat)}] /Resources << /Font << /F1 3 0 R >> >> >>`,
    `<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n${stream.toString("latin1")}\nendstream`,
  ];
  return Buffer.from(withXref(objects), "latin1");
}

/** ~10 KB of PDF whose page lists one 8 MiB stream (a line of text, then spaces) 128 times: 1 GiB to decode. */
export function gigabytePdfBomb(): Buffer {
  const content = Buffer.concat([
    Buffer.from("BT /F1 12 Tf 72 720 Td (Hello bomb) Tj ET\n"),
    Buffer.alloc(8 * 2 ** 20, " "),
  ]);
  return makeDeflatedPdf({ content, repeat: 128 });
}
