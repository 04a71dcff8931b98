/**
 * A tool schema whose JSON Schema is computed once per process. The v2 SDK converts a tool's zod schema
 * through Standard Schema's `jsonSchema` converter on every request that needs it (each request has a server
 * of its own, so nothing is kept between them): for a cached web_search that conversion cost more than the
 * call. The converted document is frozen, so a caller that tried to change the shared copy would fail loudly.
 */
import type { z } from "zod";

type Io = "input" | "output";
type Converter = z.ZodType["~standard"]["jsonSchema"]["input"];

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

export function withCachedJsonSchema<S extends z.ZodType>(schema: S): S {
  const standard = schema["~standard"];
  const converted = new Map<string, Record<string, unknown>>();
  const convert =
    (io: Io): Converter =>
    (options) => {
      const key = `${io} ${options.target}`;
      let json = converted.get(key);
      if (!json) {
        json = deepFreeze(standard.jsonSchema[io](options));
        converted.set(key, json);
      }
      return json;
    };
  const cached = {
    version: standard.version,
    vendor: standard.vendor,
    validate: standard.validate,
    jsonSchema: { input: convert("input"), output: convert("output") },
  };
  // Everything but `~standard` is the schema itself (parsing, `_zod`, the v1 SDK's conversions).
  return new Proxy(schema, {
    get: (target, property) => (property === "~standard" ? cached : Reflect.get(target, property, target)),
  });
}
