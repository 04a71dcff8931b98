/**
 * Mozilla Readability on a linkedom DOM, with linkedom's costliest paths replaced by equivalents that
 * return the same answers and two serialisations it never uses skipped (each was hot in profiles of a
 * 500 KB article): overrides of Readability helpers, so an upgrade that renames one only loses the
 * speed-up.
 */
import { Readability } from "@mozilla/readability";
import { parseDocument, styleValue } from "./dom";

export type Article = NonNullable<ReturnType<Readability<Node>["parse"]>>;

/**
 * The main article of `document` (which Readability prunes), its `content` left as a DOM node. `html` is
 * what `document` was parsed from: a retry with looser rules starts again from it.
 */
export function readArticle(document: Document, base: string, html: string): Article | null {
  return new LinkedomReadability(document, base, html).parse();
}

const OPTIONS = { keepClasses: true, serializer: (node: Node) => node };

/** Stands in for the page's HTML, which Readability only hands back to restore the page for a retry. */
const UNSERIALIZED_PAGE = Symbol("page not serialized");

/** Readability's members the overrides use (not in its type declarations). */
interface Internals {
  REGEXPS: { byline: RegExp };
  _doc: Document;
  _unwrapNoscriptImages(document: Document): void;
  _removeScripts(document: Document): void;
  _prepDocument(): void;
  _grabArticle(page?: Element | null): Element | null;
  _getAllNodesWithTag(node: ParentNode, tagNames: readonly string[]): Element[];
  _debug: boolean;
}

const READABILITY = Readability.prototype as unknown as Internals;

/** The DOM's own innerHTML setter of `element`, from its prototype chain. */
function innerHtmlSetter(element: Element): (this: Element, html: unknown) => void {
  for (let proto = Object.getPrototypeOf(element); proto !== null; proto = Object.getPrototypeOf(proto)) {
    const set = Object.getOwnPropertyDescriptor(proto, "innerHTML")?.set;
    if (set) return set;
  }
  throw new Error("no innerHTML setter on this DOM");
}

class LinkedomReadability extends Readability<Node> {
  constructor(
    document: Document,
    private readonly base: string,
    private readonly html: string,
  ) {
    // linkedom documents have no URL (baseURI is null), so Readability's `new URL(href, null)` threw for
    // every relative link and left it relative. Both URIs are the base so that, as before, in-page
    // `#anchor` links stay as they are.
    Object.defineProperty(document, "baseURI", { value: base });
    Object.defineProperty(document, "documentURI", { value: base });
    super(document, OPTIONS);
  }

  /**
   * Readability serialises the whole page before its first attempt, only to restore it when the
   * attempt finds too little text and it retries with looser rules; and it serialises the article it
   * returns for a debug message it does not print. Each was about a twentieth of the work on a large
   * article. Here neither is serialised: a retry gets the same HTML from a fresh parse of the source,
   * prepared as Readability prepared this one (noscript images, scripts, styles, <br> runs, <font>).
   */
  _grabArticle(page?: Element | null): Element | null {
    const target = page ?? this.internals._doc.body;
    if (!target) return READABILITY._grabArticle.call(this, page);
    let prepared: string | undefined;
    const set = innerHtmlSetter(target);
    Object.defineProperty(target, "innerHTML", {
      configurable: true,
      get: () => UNSERIALIZED_PAGE,
      set: (value: unknown) => {
        if (value === UNSERIALIZED_PAGE) prepared ??= this.preparedBody();
        set.call(target, value === UNSERIALIZED_PAGE ? prepared : value);
      },
    });
    let article: Element | null;
    try {
      article = READABILITY._grabArticle.call(this, page);
    } finally {
      Reflect.deleteProperty(target, "innerHTML");
    }
    // parse() reads the article's HTML for its "Grabbed" debug line right after this returns.
    if (article && !this.internals._debug) {
      Object.defineProperty(article, "innerHTML", {
        configurable: true,
        get: () => {
          Reflect.deleteProperty(article, "innerHTML");
          return "";
        },
      });
    }
    return article;
  }

  /** The source parsed again and prepared as parse() prepares a document before its first attempt. */
  private preparedBody(): string {
    const document = parseDocument(this.html);
    const fresh = new LinkedomReadability(document, this.base, this.html).internals;
    fresh._unwrapNoscriptImages(document);
    fresh._removeScripts(document);
    fresh._prepDocument();
    return document.body?.innerHTML ?? "";
  }

  private get internals(): Internals {
    return this as unknown as Internals;
  }

  /**
   * `querySelectorAll(tagNames.join(","))` as linkedom answers it (document order, names compared
   * case-insensitively, <template> contents skipped), without compiling a css-select query per call:
   * Readability calls this for every paragraph and every candidate it cleans.
   */
  _getAllNodesWithTag(node: ParentNode, tagNames: readonly string[]): Element[] {
    linkedom ??= linkedomLinks(node);
    if (linkedom === false) return READABILITY._getAllNodesWithTag.call(this, node, tagNames);
    // Readability passes both "p" and "SPAN"; css-select lower-cases both sides in HTML documents.
    const wanted = tagNames.map((name) => name.toLowerCase());
    const found: Element[] = [];
    // One pass over the subtree's nodes in document order, as linkedom's querySelectorAll walks them.
    const { next, end } = linkedom;
    const stop = (node as unknown as Linked)[end];
    let at = (node as unknown as Linked)[next];
    while (at !== undefined && at !== stop) {
      let after = at[next];
      if (at.nodeType === ELEMENT_NODE) {
        const name = (at as unknown as Element).localName.toLowerCase();
        if (wanted.includes(name)) found.push(at as unknown as Element);
        if (name === "template") after = at[end]?.[next];
      }
      at = after;
    }
    return found;
  }

  /** Readability's test with the cheap conditions first: it read the text of every element it walked. */
  _isValidByline(node: Element, matchString: string): boolean {
    const itemprop = node.getAttribute("itemprop");
    const named =
      node.getAttribute("rel") === "author" ||
      itemprop?.includes("author") === true ||
      this.internals.REGEXPS.byline.test(matchString);
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

const ELEMENT_NODE = 1;

interface Linked {
  nodeType: number;
  [link: symbol]: Linked;
}

/**
 * linkedom keeps a document as one list in document order: every node links to the next, every element
 * to its end marker. The links are private symbols, found here by their names; when an upgrade renames
 * them Readability's own query answers instead.
 */
function linkedomLinks(node: object): { next: symbol; end: symbol } | false {
  let next: symbol | undefined;
  let end: symbol | undefined;
  for (const symbol of Object.getOwnPropertySymbols(node)) {
    if (symbol.description === "next") next = symbol;
    else if (symbol.description === "end") end = symbol;
  }
  return next && end ? { next, end } : false;
}

/** Found on the first call: the symbols are linkedom's module constants. */
let linkedom: ReturnType<typeof linkedomLinks> | undefined;
