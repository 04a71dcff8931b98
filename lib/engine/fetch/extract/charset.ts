/**
 * Bytes → text with the page's own charset, in the browser's order of precedence: byte-order mark,
 * then the Content-Type header, then a <meta> declaration in the first 4 KB, then UTF-8.
 */
import iconv from "iconv-lite";

const META_SNIFF_BYTES = 4096;
const META_CHARSET = /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i;

export function decodeText(body: Buffer, contentType: string): { text: string; charset: string } {
  const bom = bomCharset(body);
  if (bom !== undefined)
    return { text: iconv.decode(body.subarray(bom.length), bom.charset), charset: bom.charset };
  const declared = headerCharset(contentType) ?? metaCharset(body);
  const charset = declared !== undefined && iconv.encodingExists(declared) ? normalize(declared) : "utf-8";
  return { text: iconv.decode(body, charset), charset };
}

function bomCharset(body: Buffer): { charset: string; length: number } | undefined {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return { charset: "utf-8", length: 3 };
  if (body[0] === 0xff && body[1] === 0xfe) return { charset: "utf-16le", length: 2 };
  if (body[0] === 0xfe && body[1] === 0xff) return { charset: "utf-16be", length: 2 };
  return undefined;
}

function headerCharset(contentType: string): string | undefined {
  return /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType)?.[1];
}

function metaCharset(body: Buffer): string | undefined {
  // latin1 maps bytes 1:1, so ASCII markup reads correctly whatever the real charset is.
  return META_CHARSET.exec(body.subarray(0, META_SNIFF_BYTES).toString("latin1"))?.[1];
}

/** As browsers do (WHATWG Encoding): ISO-8859-1 and US-ASCII labels mean windows-1252. */
function normalize(charset: string): string {
  const lower = charset.toLowerCase();
  return lower === "iso-8859-1" || lower === "latin1" || lower === "us-ascii" || lower === "ascii"
    ? "windows-1252"
    : lower;
}
