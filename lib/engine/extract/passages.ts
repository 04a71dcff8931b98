/**
 * The page passages a model says each value came from, kept only when they hold: the quote occurs in the
 * page text (whitespace and case aside) and the path points at a value of the data. A model that invents a
 * quote loses it; the data itself was validated against the schema already.
 */
export interface Passage {
  /** JSON pointer of the value in `data`. */
  path: string;
  /** The page's words it came from. */
  text: string;
}

const normalise = (text: string) => text.replace(/\s+/g, " ").trim().toLowerCase();

/** The value at a JSON pointer (RFC 6901), or undefined. */
function resolvePointer(data: unknown, pointer: string): unknown {
  if (pointer === "") return data;
  if (!pointer.startsWith("/")) return undefined;
  let node: unknown = data;
  for (const raw of pointer.slice(1).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (typeof node !== "object" || node === null || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

export function verifiedPassages(data: unknown, passages: unknown, pageText: string): Passage[] {
  if (!Array.isArray(passages)) return [];
  const page = normalise(pageText);
  return passages.flatMap((passage): Passage[] => {
    if (typeof passage !== "object" || passage === null) return [];
    const { path, text } = passage as Record<string, unknown>;
    if (typeof path !== "string" || typeof text !== "string" || normalise(text) === "") return [];
    if (resolvePointer(data, path) === undefined || !page.includes(normalise(text))) return [];
    return [{ path, text: text.trim() }];
  });
}
