/** Text clean-up shared by every adapter: providers return titles and snippets with markup and entities. */
import { parse } from "node-html-parser";

const BREAKING_TAG = /<\s*(br|\/p|\/div|\/li|\/h[1-6]|\/tr|\/td)\b[^>]*>/gi;

/** Strips tags, decodes HTML entities and collapses whitespace ("<b>Tom</b> &amp; Jerry" -> "Tom & Jerry"). */
export function cleanText(raw: string | null | undefined): string {
  if (!raw) return "";
  const text = raw.includes("<") || raw.includes("&") ? parse(raw.replace(BREAKING_TAG, " $&")).text : raw;
  return text.replace(/\s+/g, " ").trim();
}
