/** The server-side DOM for extraction: linkedom (fast, no layout). */
import { parseHTML } from "linkedom";

/**
 * `html` as a document that always has a root element. linkedom builds none for markup without an element
 * (an empty or whitespace body, plain text, a comment, garbage bytes), and Readability refuses such a
 * document ("First argument to Readability constructor should be a document object"); a browser would put
 * that text in a body, and so does this.
 */
export function parseDocument(html: string): Document {
  const { document } = parseHTML(html);
  if (document.documentElement) return document as unknown as Document;
  return parseHTML(`<!DOCTYPE html><html><head></head><body>${html}</body></html>`)
    .document as unknown as Document;
}

/**
 * One property of an element's inline style, parsed as linkedom's `style` does (the last non-empty
 * declaration wins) without building its CSSStyleDeclaration (a Map behind a Proxy) per element.
 */
export function styleValue(node: Element, property: string): string | undefined {
  const style = node.getAttribute("style");
  if (style === null) return undefined;
  let value: string | undefined;
  for (const declaration of style.split(/\s*;\s*/)) {
    const colon = declaration.indexOf(":");
    if (colon > 0 && declaration.slice(0, colon).trim() === property) {
      const candidate = declaration.slice(colon + 1).trim();
      if (candidate !== "") value = candidate;
    }
  }
  return value;
}
