/**
 * The caller's JSON Schema: bounded in size, depth and references, checked as a schema (JSON Schema 2020-12,
 * Ajv) before anything is fetched, and the validator every reply is held to. Keywords whose checking could
 * stall on hostile data (regular expressions: `pattern`, `patternProperties`) are refused; formats are
 * annotations.
 *
 * Compiling and validating run in a worker (schema-worker.mjs through lib/engine/shared/run-in-worker.ts)
 * with a heap and a time cap: what a schema costs grows with how its definitions and references combine,
 * not with its bytes, so a hostile one must cost a worker, never the server. A schema is compiled once
 * (the worker answers the validator's source) and kept, by hash, among the last few compiled; each
 * validation loads that source in a worker of its own.
 */
import { createHash } from "node:crypto";
import { raceAbort } from "@/lib/engine/shared/abort";
import { ProviderError } from "@/lib/engine/shared/errors";
import { runInWorker, type WorkerLimits, workerSlots } from "@/lib/engine/shared/run-in-worker";

export type JsonSchema = Record<string, unknown>;

/** Bytes of the schema as JSON (UTF-8). */
export const MAX_SCHEMA_BYTES = 16_384;
/** Levels of nested objects and arrays in the schema document. */
export const MAX_SCHEMA_DEPTH = 12;
/** `$ref` and `$dynamicRef` uses: each is a call of a definition's validator, and errors multiply with them. */
export const MAX_SCHEMA_REFS = 100;
/** Validation errors told to the model for its repair, and to the caller. */
const MAX_ERRORS_SHOWN = 10;
/** The validator's source: what a compiled schema keeps in memory and each validation loads. */
const MAX_VALIDATOR_CODE_CHARS = 1_000_000;
/** Compiled schemas kept (their validators' source, or why they were refused). */
const COMPILED_KEPT = 32;

const SCRIPT = "lib/engine/extract/schema-worker.mjs";
/** Ajv and its meta-schemas take about 10 MiB; a schema within the limits compiles in well under a second. */
const COMPILE_LIMITS: WorkerLimits = { heapMb: 96, timeMs: 5_000 };
/** A reply is at most a model's output; checking it against a compiled schema is quick. */
const VALIDATE_LIMITS: WorkerLimits = { heapMb: 64, timeMs: 5_000 };
/** Schema work at once per process; each worker holds up to its heap cap. */
const schemaSlots = workerSlots(2);

/** Regular expressions from a caller would run on replies a page shaped: a catastrophic one stalls the server. */
const REFUSED_KEYWORDS = ["pattern", "patternProperties"] as const;
const REFERENCE_KEYWORDS = new Set(["$ref", "$dynamicRef"]);

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

/** `$ref` and `$dynamicRef` keys anywhere in the document (of a depth already checked). */
function referencesIn(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  let count = 0;
  for (const [key, child] of Object.entries(value)) {
    if (!Array.isArray(value) && REFERENCE_KEYWORDS.has(key)) count++;
    count += referencesIn(child);
  }
  return count;
}

/**
 * Why `schema` cannot be used, by what a look at the document shows, or undefined: deeper than
 * MAX_SCHEMA_DEPTH, over MAX_SCHEMA_BYTES, more than MAX_SCHEMA_REFS references, not an object schema at its
 * root, or a refused keyword. Whether it is a valid JSON Schema is the compiler's to say (`compileSchema`).
 */
export function schemaProblem(schema: JsonSchema, field: string): string | undefined {
  // Depth first: the size is measured by serialising, which a document thousands of levels deep would overflow.
  if (depthOf(schema, MAX_SCHEMA_DEPTH) > MAX_SCHEMA_DEPTH)
    return `${field} nests more than ${MAX_SCHEMA_DEPTH} levels of objects and arrays; at most ${MAX_SCHEMA_DEPTH}`;
  const bytes = Buffer.byteLength(JSON.stringify(schema), "utf8");
  if (bytes > MAX_SCHEMA_BYTES) return `${field} is ${bytes} bytes as JSON; at most ${MAX_SCHEMA_BYTES}`;
  const references = referencesIn(schema);
  if (references > MAX_SCHEMA_REFS)
    return `${field} uses $ref ${references} times; at most ${MAX_SCHEMA_REFS} references`;
  if (schema.type !== "object") return `${field} must describe an object: its root needs "type": "object"`;
  const refused = REFUSED_KEYWORDS.find((keyword) => usesKeyword(schema, keyword));
  if (refused) return `${field} uses "${refused}", which is not supported (regular expressions are refused)`;
  return undefined;
}

/** A schema the caller cannot use: the message says why (invalid input). */
export class SchemaRefused extends Error {
  override name = "SchemaRefused";
}

type Validation = { ok: true } | { ok: false; errors: string[] };
/** Checks a value against a compiled schema, in a worker; a check past its caps is a failed one. */
export type SchemaValidator = (data: unknown, signal?: AbortSignal) => Promise<Validation>;

type Compiled = { code: string } | { refused: string };
const compiled = new Map<string, Promise<Compiled>>();

/**
 * The validator of a schema that passed `schemaProblem`, compiled in a worker (or taken from the schemas
 * compiled last). Throws SchemaRefused when it is not a valid JSON Schema or too complex to compile within
 * the worker's caps; the signal's reason when it aborts first.
 */
export async function compileSchema(
  schema: JsonSchema,
  field: string,
  signal?: AbortSignal,
): Promise<SchemaValidator> {
  const pending = compiledOnce(schema);
  const outcome = await (signal ? raceAbort(pending, signal) : pending);
  if ("refused" in outcome) throw new SchemaRefused(`${field} ${outcome.refused}`);
  return (data, validationSignal) => validate(outcome.code, data, validationSignal);
}

/**
 * Concurrent requests with one schema share its compilation, which none of them can abort for the others (it
 * ends within COMPILE_LIMITS); a refusal is kept as well as a validator.
 */
function compiledOnce(schema: JsonSchema): Promise<Compiled> {
  const key = createHash("sha256").update(JSON.stringify(schema)).digest("hex");
  const kept = compiled.get(key);
  if (kept) {
    compiled.delete(key);
    compiled.set(key, kept);
    return kept;
  }
  const pending = compileInWorker(schema);
  compiled.set(key, pending);
  // A worker that failed says nothing about the schema: the next request compiles it again.
  pending.catch(() => compiled.delete(key));
  for (const oldest of compiled.keys()) {
    if (compiled.size <= COMPILED_KEPT) break;
    compiled.delete(oldest);
  }
  return pending;
}

/** A worker that fails to start or answer is an error of its own, never kept as the schema's verdict. */
async function compileInWorker(schema: JsonSchema): Promise<Compiled> {
  try {
    const compiledSchema = await runInWorker<{ code: string } | { invalid: string }>({
      script: SCRIPT,
      workerData: { task: "compile", schema, maxCodeChars: MAX_VALIDATOR_CODE_CHARS },
      limits: COMPILE_LIMITS,
      label: "schema compilation",
      slots: schemaSlots,
    });
    return "invalid" in compiledSchema
      ? { refused: `is not a valid JSON Schema (2020-12): ${compiledSchema.invalid}` }
      : compiledSchema;
  } catch (error) {
    if (error instanceof ProviderError && error.reason === "too_large")
      return { refused: `is too complex to compile: ${error.message}` };
    throw error;
  }
}

async function validate(code: string, data: unknown, signal?: AbortSignal): Promise<Validation> {
  try {
    const [result] = await runInWorker<Validation[]>({
      script: SCRIPT,
      workerData: { task: "validate", code, values: [data], maxErrors: MAX_ERRORS_SHOWN },
      limits: VALIDATE_LIMITS,
      label: "schema validation",
      slots: schemaSlots,
      signal,
    });
    return result ?? { ok: false, errors: ["/ could not be validated"] };
  } catch (error) {
    // Past the worker's caps the reply is refused like an invalid one; a worker that failed is an error.
    if (error instanceof ProviderError && error.reason === "too_large" && !signal?.aborted)
      return { ok: false, errors: [`/ could not be validated: ${error.message}`] };
    throw error;
  }
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
