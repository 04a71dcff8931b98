/**
 * Mozilla Readability on a linkedom DOM, with linkedom's costliest paths replaced by equivalents that
 * return the same answers (each was hot in profiles of a 500 KB article): overrides of Readability
 * helpers, so an upgrade that renames one only loses the speed-up.
 */
import { Readability } from "@mozilla/readability";
import { styleValue } from "./dom";

export type Article = NonNullable<ReturnType<Readability<Node>["parse"]>>;

/** The main article of `document` (which Readability prunes), its `content` left as a DOM node. */
export function readArticle(document: Document, base: string): Article | null {
  // linkedom documents have no URL (baseURI is null), so Readability's `new URL(href, null)` threw for
  // every relative link and left it relative. Both URIs are the base so that, as before, in-page
  // `#anchor` links stay as they are.
  Object.defineProperty(document, "baseURI", { value: base });
  Object.defineProperty(document, "documentURI", { value: base });
  return new LinkedomReadability(document, { keepClasses: true, serializer: (node: Node) => node }).parse();
}

interface Patterns {
  REGEXPS: { byline: RegExp };
}

class LinkedomReadability extends Readability<Node> {
  /**
   * `querySelectorAll(tagNames.join(","))` as linkedom answers it (document order, names compared
   * case-insensitively, <template> contents skipped), without compiling a css-select query per call:
   * Readability calls this for every paragraph and every candidate it cleans.
   */
  _getAllNodesWithTag(node: ParentNode, tagNames: readonly string[]): Element[] {
    const found: Element[] = [];
    // Readability passes both "p" and "SPAN"; css-select lower-cases both sides in HTML documents.
    const wanted = new Set(tagNames.map((name) => name.toLowerCase()));
    const visit = (parent: ParentNode) => {
      for (let child = parent.firstElementChild; child !== null; child = child.nextElementSibling) {
        const name = child.localName.toLowerCase();
        if (wanted.has(name)) found.push(child);
        if (name !== "template") visit(child);
      }
    };
    visit(node);
    return found;
  }

  /** Readability's test with the cheap conditions first: it read the text of every element it walked. */
  _isValidByline(node: Element, matchString: string): boolean {
    const itemprop = node.getAttribute("itemprop");
    const named =
      node.getAttribute("rel") === "author" ||
      itemprop?.includes("author") === true ||
      (this as unknown as Patterns).REGEXPS.byline.test(matchString);
    if (!named) return false;
    const length = (node.textContent ?? "").trim().length;
    return length > 0 && length < 100;
  }

  /**
   * Readability's own visibility test, reading the style attribute directly: linkedom's `style`
   * builds a CSSStyleDeclaration for every element Readability visits.
   */
  _isProbablyVisible(node: Element): boolean {
    if (styleValue(node, "display") === "none" || styleValue(node, "visibility") === "hidden") return false;
    if (node.hasAttribute("hidden")) return false;
    if (node.getAttribute("aria-hidden") !== "true") return true;
    // Wikimedia's math fallback images are aria-hidden but shown. SVG classNames are not strings.
    const className: unknown = node.className;
    return typeof className === "string" && className.includes("fallback-image");
  }
}
