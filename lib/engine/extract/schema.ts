/**
 * The caller's JSON Schema: bounded in size and depth, checked as a schema (JSON Schema 2020-12, Ajv) before
 * anything is fetched, and the validator every reply is held to. Keywords whose checking could stall on
 * hostile data (regular expressions: `pattern`, `patternProperties`) are refused; formats are annotations.
 */
import Ajv2020, { type ErrorObject } from "ajv/dist/2020";

export type JsonSchema = Record<string, unknown>;

/** Bytes of the schema as JSON (UTF-8). */
export const MAX_SCHEMA_BYTES = 16_384;
/** Levels of nested objects and arrays in the schema document. */
export const MAX_SCHEMA_DEPTH = 12;
/** Validation errors told to the model for its repair, and to the caller. */
const MAX_ERRORS_SHOWN = 10;

/** Regular expressions from a caller would run on replies a page shaped: a catastrophic one stalls the server. */
const REFUSED_KEYWORDS = ["pattern", "patternProperties"] as const;

/**
 * Nesting depth of a JSON value (0 for a scalar, 1 for a flat object or array), counted without recursion and
 * only up to `limit` + 1, so a hostile document thousands of levels deep costs nothing more to refuse.
 */
function depthOf(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [node, depth] = item;
    if (typeof node !== "object" || node === null) continue;
    deepest = Math.max(deepest, depth);
    if (deepest > limit) return deepest;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** Every key used anywhere in the document (a property named `pattern` is caught too: the refusal is plain). */
function usesKeyword(value: unknown, keyword: string): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (!Array.isArray(value) && Object.hasOwn(value, keyword)) return true;
  return Object.values(value).some((child) => usesKeyword(child, keyword));
}

/** JSON Schema 2020-12, strict about unknown keywords (a typo is an error, not an ignored constraint). */
function newAjv(): Ajv2020 {
  // A fresh instance per call: compiled caller schemas are never kept past it.
  return new Ajv2020({
    allErrors: true,
    strict: true,
    strictTypes: false,
    strictTuples: false,
    validateFormats: false,
  });
}

/**
 * Why `schema` cannot be used, or undefined: deeper than MAX_SCHEMA_DEPTH, over MAX_SCHEMA_BYTES, not an
 * object schema at its root, a refused keyword, or not a valid JSON Schema (with the validator's reason).
 */
export function schemaProblem(schema: JsonSchema, field: string): string | undefined {
  // Depth first: the size is measured by serialising, which a document thousands of levels deep would overflow.
  if (depthOf(schema, MAX_SCHEMA_DEPTH) > MAX_SCHEMA_DEPTH)
    return `${field} nests more than ${MAX_SCHEMA_DEPTH} levels of objects and arrays; at most ${MAX_SCHEMA_DEPTH}`;
  const bytes = Buffer.byteLength(JSON.stringify(schema), "utf8");
  if (bytes > MAX_SCHEMA_BYTES) return `${field} is ${bytes} bytes as JSON; at most ${MAX_SCHEMA_BYTES}`;
  if (schema.type !== "object") return `${field} must describe an object: its root needs "type": "object"`;
  const refused = REFUSED_KEYWORDS.find((keyword) => usesKeyword(schema, keyword));
  if (refused) return `${field} uses "${refused}", which is not supported (regular expressions are refused)`;
  try {
    newAjv().compile(schema);
  } catch (error) {
    return `${field} is not a valid JSON Schema (2020-12): ${error instanceof Error ? error.message : String(error)}`;
  }
  return undefined;
}

export type Validation = { ok: true } | { ok: false; errors: string[] };

/** The validator of a schema that passed `schemaProblem`. */
export function validatorFor(schema: JsonSchema): (data: unknown) => Validation {
  const validate = newAjv().compile(schema);
  return (data) =>
    validate(data) ? { ok: true } : { ok: false, errors: describeErrors(validate.errors ?? []) };
}

function describeErrors(errors: readonly ErrorObject[]): string[] {
  return errors
    .slice(0, MAX_ERRORS_SHOWN)
    .map((error) => `${error.instancePath || "/"} ${error.message ?? "is invalid"}`);
}

/**
 * Whether strict structured outputs accept the schema as it is: every object lists all its properties as
 * required and forbids others. Other schemas are sent with strict off (the reply is validated either way).
 */
export function isStrictCompatible(schema: unknown): boolean {
  if (typeof schema !== "object" || schema === null) return true;
  if (Array.isArray(schema)) return schema.every(isStrictCompatible);
  const node = schema as Record<string, unknown>;
  const properties = node.properties;
  if (typeof properties === "object" && properties !== null) {
    const required = new Set(Array.isArray(node.required) ? node.required : []);
    if (node.additionalProperties !== false) return false;
    if (!Object.keys(properties).every((name) => required.has(name))) return false;
  } else if (node.type === "object" && node.additionalProperties !== false) {
    return false;
  }
  return Object.values(node).every(isStrictCompatible);
}
