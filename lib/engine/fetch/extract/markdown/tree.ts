/**
 * One read of the DOM for the Markdown writer: each element's child list is taken once (linkedom builds
 * a new array on every `childNodes` access) and text is whitespace-collapsed as a browser lays it out,
 * with Turndown's rules: runs of spaces and newlines become one space, a space after a space or at a
 * block edge is dropped, <pre> is kept verbatim. The DOM itself is never modified or cloned.
 */

interface TextLeaf {
  kind: "text";
  text: string;
  /** Whitespace only (or empty). */
  blank: boolean;
}

export interface ElementLeaf {
  kind: "element";
  node: Element;
  /** nodeName, read once (linkedom upper-cases it on every read). */
  name: string;
  children: Leaf[];
  /** Its text is whitespace only. */
  blank: boolean;
  /** A descendant is a void element or one that matters when empty (a link, a table cell, …). */
  hasMeaningful: boolean;
  /** Text content, computed on first use. */
  text?: string;
}

/** A comment inside <pre>: renders as nothing but still counts as a sibling there. */
interface OtherLeaf {
  kind: "other";
}

export type Leaf = TextLeaf | ElementLeaf | OtherLeaf;

/** Where an element sits: its parent, its index among the parent's children and among its elements. */
export interface Place {
  parent: ElementLeaf;
  index: number;
  elementIndex: number;
}

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;
/** Whitespace runs that collapse to one space; a lone space is left alone, so prose is not rewritten. */
const COLLAPSIBLE = /[ \r\n\t]{2,}|[\r\n\t]/g;
const ONLY_WHITESPACE = /^\s*$/;

// biome-ignore format: a word list
export const BLOCK = new Set([
  "ADDRESS", "ARTICLE", "ASIDE", "AUDIO", "BLOCKQUOTE", "BODY", "CANVAS", "CENTER", "DD", "DIR", "DIV",
  "DL", "DT", "FIELDSET", "FIGCAPTION", "FIGURE", "FOOTER", "FORM", "FRAMESET", "H1", "H2", "H3", "H4",
  "H5", "H6", "HEADER", "HGROUP", "HR", "HTML", "ISINDEX", "LI", "MAIN", "MENU", "NAV", "NOFRAMES",
  "NOSCRIPT", "OL", "OUTPUT", "P", "PRE", "SECTION", "TABLE", "TBODY", "TD", "TFOOT", "TH", "THEAD",
  "TR", "UL",
]);
// biome-ignore format: a word list
const VOID = new Set([
  "AREA", "BASE", "BR", "COL", "COMMAND", "EMBED", "HR", "IMG", "INPUT", "KEYGEN", "LINK", "META",
  "PARAM", "SOURCE", "TRACK", "WBR",
]);
// biome-ignore format: a word list
const MEANINGFUL_WHEN_BLANK = new Set([
  "A", "TABLE", "THEAD", "TBODY", "TFOOT", "TH", "TD", "IFRAME", "SCRIPT", "AUDIO", "VIDEO",
]);

/**
 * Whitespace only and holding nothing that shows when empty (a link, an image, a table part): written
 * as nothing, or as a paragraph break when it is a block.
 */
export function isBlankElement(leaf: ElementLeaf): boolean {
  return leaf.blank && !leaf.hasMeaningful && !VOID.has(leaf.name) && !MEANINGFUL_WHEN_BLANK.has(leaf.name);
}

/** The children of `root` (not `root` itself), collapsed. */
export function snapshot(root: Element): ElementLeaf {
  const name = root.nodeName;
  if (name === "PRE") return verbatim(root);
  return new Collapser().children(root, name);
}

/** The text as the DOM's textContent would give it after collapsing. */
export function textOf(leaf: Leaf): string {
  if (leaf.kind === "text") return leaf.text;
  if (leaf.kind === "other") return "";
  if (leaf.text === undefined) {
    let text = "";
    for (const child of leaf.children) text += textOf(child);
    leaf.text = text;
  }
  return leaf.text;
}

function element(node: Element, name: string): ElementLeaf {
  return { kind: "element", node, name, children: [], blank: true, hasMeaningful: false };
}

function adopt(parent: ElementLeaf, child: ElementLeaf): void {
  parent.children.push(child);
  parent.blank &&= child.blank;
  parent.hasMeaningful ||=
    child.hasMeaningful || VOID.has(child.name) || MEANINGFUL_WHEN_BLANK.has(child.name);
}

/** <pre> and everything in it, as is. */
function verbatim(node: Element): ElementLeaf {
  const leaf = element(node, node.nodeName);
  for (let child = node.firstChild; child !== null; child = child.nextSibling) {
    if (child.nodeType === ELEMENT_NODE) adopt(leaf, verbatim(child as Element));
    else if (child.nodeType === TEXT_NODE) {
      const text = (child as Text).data;
      const blank = ONLY_WHITESPACE.test(text);
      leaf.children.push({ kind: "text", text, blank });
      leaf.blank &&= blank;
    } else leaf.children.push({ kind: "other" });
  }
  return leaf;
}

/**
 * Turndown's collapse-whitespace walk in document order. An element is seen on the way in and, when it
 * has children, again on the way out; a block (or <br>) edge ends the run of inline text and trims its
 * trailing space, a void element protects the next text's leading space.
 */
class Collapser {
  /** The last text kept and the list it sits in, while a run of inline text is open. */
  private previous: TextLeaf | undefined;
  private previousSiblings: Leaf[] = [];
  private keepLeadingSpace = false;

  children(node: Element, name: string): ElementLeaf {
    const leaf = element(node, name);
    this.walk(node, leaf);
    const last = this.previous;
    if (last !== undefined) {
      last.text = trimEndSpace(last.text);
      if (last.text === "") this.previousSiblings.splice(this.previousSiblings.lastIndexOf(last), 1);
    }
    return leaf;
  }

  private walk(node: Element, leaf: ElementLeaf): void {
    for (let child = node.firstChild; child !== null; child = child.nextSibling) {
      if (child.nodeType === TEXT_NODE) this.text((child as Text).data, leaf);
      else if (child.nodeType === ELEMENT_NODE) adopt(leaf, this.element(child as Element));
    }
  }

  private element(node: Element): ElementLeaf {
    const name = node.nodeName;
    this.edge(name);
    if (name === "PRE") return verbatim(node);
    const leaf = element(node, name);
    if (node.firstChild === null) return leaf;
    this.walk(node, leaf);
    this.edge(name);
    return leaf;
  }

  private edge(name: string): void {
    if (BLOCK.has(name) || name === "BR") {
      if (this.previous !== undefined) this.previous.text = trimEndSpace(this.previous.text);
      this.previous = undefined;
      this.keepLeadingSpace = false;
    } else if (VOID.has(name)) {
      this.previous = undefined;
      this.keepLeadingSpace = true;
    } else if (this.previous !== undefined) {
      this.keepLeadingSpace = false;
    }
  }

  private text(data: string, parent: ElementLeaf): void {
    let text = data.replace(COLLAPSIBLE, " ");
    const afterSpace = this.previous === undefined || this.previous.text.endsWith(" ");
    if (afterSpace && !this.keepLeadingSpace && text.startsWith(" ")) text = text.slice(1);
    if (text === "") return;
    const leaf: TextLeaf = { kind: "text", text, blank: ONLY_WHITESPACE.test(text) };
    parent.children.push(leaf);
    parent.blank &&= leaf.blank;
    this.previous = leaf;
    this.previousSiblings = parent.children;
  }
}

function trimEndSpace(text: string): string {
  return text.endsWith(" ") ? text.slice(0, -1) : text;
}
