/**
 * A caller's JSON Schema compiled, or values validated against one, in a worker thread started by
 * lib/engine/shared/run-in-worker.ts (a plain .mjs file found at run time, never bundled by Next.js): the
 * parent caps the heap and the time, so a schema whose compilation or validation explodes costs this
 * thread, never the server.
 *
 * workerData { task: "compile", schema, maxCodeChars }: Ajv (JSON Schema 2020-12, strict, formats as
 * annotations) with `inlineRefs: false`, so a definition is compiled once and called wherever it is
 * referenced (inlined, its copies multiply with the references: one of 100 properties referenced 150
 * times ran a 256 MiB heap out). Replies { type: "done", result: { code } }, the validator as standalone
 * source (ajv/dist/standalone), or { type: "done", result: { invalid } } with Ajv's reason for a schema it
 * refuses, or { type: "too_large", message } when the source is longer than `maxCodeChars`.
 *
 * workerData { task: "validate", code, values, maxErrors }: the source of a compile task loaded here and each
 * value checked. Replies { type: "done", result: Validation[] } (lib/engine/extract/schema.ts).
 */
import { parentPort, workerData } from "node:worker_threads";
import Ajv2020 from "ajv/dist/2020.js";
import equal from "ajv/dist/runtime/equal.js";
import ucs2length from "ajv/dist/runtime/ucs2length.js";
import uri from "ajv/dist/runtime/uri.js";
import validationError from "ajv/dist/runtime/validation_error.js";
import standaloneCode from "ajv/dist/standalone/index.js";

/** What standalone validators `require`: Ajv's runtime helpers, and nothing else. */
const RUNTIME = {
  "ajv/dist/runtime/equal": equal,
  "ajv/dist/runtime/ucs2length": ucs2length,
  "ajv/dist/runtime/uri": uri,
  "ajv/dist/runtime/validation_error": validationError,
};

function compile({ schema, maxCodeChars }) {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    strictTypes: false,
    strictTuples: false,
    validateFormats: false,
    inlineRefs: false,
    code: { source: true },
  });
  let code;
  try {
    code = standaloneCode(ajv, ajv.compile(schema));
  } catch (error) {
    return { type: "done", result: { invalid: error instanceof Error ? error.message : String(error) } };
  }
  if (code.length > maxCodeChars)
    return {
      type: "too_large",
      message: `its validator is ${code.length} characters of code; at most ${maxCodeChars}`,
    };
  return { type: "done", result: { code } };
}

/** The source as Ajv's own compile evaluates it (new Function), with the runtime helpers it names. */
function load(code) {
  const module = { exports: {} };
  const require = (name) => {
    if (!Object.hasOwn(RUNTIME, name)) throw new Error(`a validator may not load ${name}`);
    return RUNTIME[name];
  };
  new Function("module", "exports", "require", code)(module, module.exports, require);
  return module.exports;
}

function validate({ code, values, maxErrors }) {
  const check = load(code);
  const result = values.map((value) => {
    if (check(value)) return { ok: true };
    const errors = (check.errors ?? [])
      .slice(0, maxErrors)
      .map((error) => `${error.instancePath || "/"} ${error.message ?? "is invalid"}`);
    return { ok: false, errors };
  });
  return { type: "done", result };
}

try {
  parentPort.postMessage(workerData.task === "compile" ? compile(workerData) : validate(workerData));
} catch (error) {
  parentPort.postMessage({ type: "failed", message: error instanceof Error ? error.message : String(error) });
}
