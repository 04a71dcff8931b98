/**
 * OOXML parts as a small ordered element tree. fast-xml-parser runs with preserveOrder (runs, paragraphs
 * and shapes mean something only in document order), untrimmed text (`xml:space="preserve"` runs keep
 * their spaces) and values left as strings. Its entity-expansion and nesting limits stay on: a part is
 * untrusted input. Names keep their prefixes (`w:p`, `a:t`, `r:id`): every producer uses the ones the
 * standard's examples use, and stripping them would merge `id` with `r:id` on `p:sldId`.
 */
import { XMLParser } from "fast-xml-parser";
import { ProviderError } from "@/lib/engine/shared/errors";

export interface XmlElement {
  name: string;
  attributes: Readonly<Record<string, string>>;
  children: readonly XmlNode[];
}

/** An element, or a run of character data. */
type XmlNode = XmlElement | string;

const ATTRIBUTES = ":@";
const TEXT = "#text";

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

/** The part's root element; `part` names it in the error when the XML is broken. */
export function parseXml(xml: string, part: string): XmlElement {
  let root: XmlElement | undefined;
  try {
    root = toNodes(parser.parse(xml)).find(isElement);
  } catch (error) {
    throw brokenPart(part, error instanceof Error ? error.message : "unreadable");
  }
  if (root === undefined) throw brokenPart(part, "no root element");
  return root;
}

function isElement(node: XmlNode): node is XmlElement {
  return typeof node !== "string";
}

export function childElements(element: XmlElement | undefined): XmlElement[] {
  return element === undefined ? [] : element.children.filter(isElement);
}

export function child(element: XmlElement | undefined, name: string): XmlElement | undefined {
  return element?.children.find((node): node is XmlElement => isElement(node) && node.name === name);
}

export function children(element: XmlElement | undefined, name: string): XmlElement[] {
  return childElements(element).filter((node) => node.name === name);
}

/** The element at the end of a chain of child names, e.g. `path(slide, "p:cSld", "p:spTree")`. */
export function path(element: XmlElement | undefined, ...names: string[]): XmlElement | undefined {
  let current = element;
  for (const name of names) current = child(current, name);
  return current;
}

/** The element's own character data (the text of a w:t or a:t), without its descendants'. */
export function ownText(element: XmlElement | undefined): string {
  if (element === undefined) return "";
  let text = "";
  for (const node of element.children) if (!isElement(node)) text += node;
  return text;
}

/** All character data under the element, in order. */
export function textContent(element: XmlElement | undefined): string {
  if (element === undefined) return "";
  let text = "";
  for (const node of element.children) text += isElement(node) ? textContent(node) : node;
  return text;
}

/** fast-xml-parser's ordered output: `[{ tag: [children], ":@": {attributes} } | { "#text": "…" }]`. */
function toNodes(raw: unknown): XmlNode[] {
  if (!Array.isArray(raw)) return [];
  const nodes: XmlNode[] = [];
  for (const item of raw as Record<string, unknown>[]) {
    for (const [key, value] of Object.entries(item)) {
      if (key === TEXT) nodes.push(String(value));
      else if (key !== ATTRIBUTES)
        nodes.push({ name: key, attributes: attributesOf(item[ATTRIBUTES]), children: toNodes(value) });
    }
  }
  return nodes;
}

function attributesOf(raw: unknown): Record<string, string> {
  if (typeof raw !== "object" || raw === null) return {};
  return Object.fromEntries(Object.entries(raw).map(([name, value]) => [name, String(value)]));
}

function brokenPart(part: string, detail: string): ProviderError {
  return new ProviderError("invalid_response", `invalid document: ${part} could not be parsed (${detail})`);
}
