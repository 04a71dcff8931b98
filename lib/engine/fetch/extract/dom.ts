/** The server-side DOM for extraction: linkedom (fast, no layout). */
import { parseHTML } from "linkedom";

export function parseDocument(html: string): Document {
  return parseHTML(html).document as unknown as Document;
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
