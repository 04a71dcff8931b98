/** The server-side DOM for extraction: linkedom (fast, no layout). */
import { parseHTML } from "linkedom";

/**
 * Levels of elements kept as elements; deeper ones become their text. Real pages stay well under it (a
 * forum's nested quotes, a framework's wrappers: a few dozen). Readability's tests walk ancestors and
 * descendants of every candidate, so its cost grew with the cube of the depth (250 levels of 5 KB: seconds;
 * 500: a stack overflow after six), and the Markdown writer recurses once per level.
 */
export const MAX_DOM_DEPTH = 96;

/**
 * `html` as a document that always has a root element, no deeper than MAX_DOM_DEPTH. linkedom builds no
 * root for markup without an element (an empty or whitespace body, plain text, a comment, garbage bytes),
 * and Readability refuses such a document ("First argument to Readability constructor should be a document
 * object"); a browser would put that text in a body, and so does this.
 */
export function parseDocument(html: string): Document {
  return parseCounted(html).document;
}

/** `parseDocument`, and how many elements the document holds (once flattened). */
export function parseCounted(html: string): { document: Document; elements: number } {
  const parsed = parseHTML(html).document as unknown as Document;
  const document = parsed.documentElement
    ? parsed
    : (parseHTML(`<!DOCTYPE html><html><head></head><body>${html}</body></html>`)
        .document as unknown as Document);
  return { document, elements: flattenBelow(document.documentElement, MAX_DOM_DEPTH) };
}

/**
 * Every element `maxDepth` levels below `root` that holds elements is left holding only its text, walked
 * without recursion: each subtree flattened is visited once, so the whole costs one pass over the document.
 * Returns the elements left.
 */
function flattenBelow(root: Element, maxDepth: number): number {
  let elements = 0;
  const stack: Array<[Element, number]> = [[root, 1]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [element, depth] = item;
    elements++;
    if (depth >= maxDepth) {
      if (element.firstElementChild !== null) {
        // The setter replaces the children with one text node of what the getter read.
        const text = element.textContent;
        element.textContent = text;
      }
      continue;
    }
    for (let child = element.firstElementChild; child !== null; child = child.nextElementSibling)
      stack.push([child, depth + 1]);
  }
  return elements;
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
