/**
 * What the fake model answers to a Structured Outputs request without a rule: JSON that fills the request's
 * schema from the page text in the user message — strings from its first words, numbers from its first
 * number, booleans true, one item per array, every property of an object — so a reply validates against
 * a plain schema and a test sees the page was read.
 */
export interface ResponseFormat {
  type: string;
  json_schema?: { name?: string; schema?: Record<string, unknown>; strict?: boolean };
}

type Schema = Record<string, unknown>;

function fill(schema: Schema, text: string, defs: Record<string, Schema>): unknown {
  const ref = typeof schema.$ref === "string" ? /^#\/\$defs\/(.+)$/.exec(schema.$ref)?.[1] : undefined;
  if (ref && defs[ref]) return fill(defs[ref], text, defs);
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const options = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (options?.[0]) return fill(options[0], text, defs);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type) {
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      return Object.fromEntries(
        Object.entries(properties).map(([name, sub]) => [name, fill(sub, text, defs)]),
      );
    }
    case "array":
      return [fill((schema.items ?? {}) as Schema, text, defs)];
    case "number":
    case "integer":
      return Number(/\d+/.exec(text)?.[0] ?? 0);
    case "boolean":
      return true;
    case "null":
      return null;
    default:
      return text.trim().split(/\s+/).slice(0, 6).join(" ");
  }
}

export function structuredReply(format: ResponseFormat, user: string): string {
  const schema = format.json_schema?.schema ?? {};
  const page = user.split('"""')[1] ?? "";
  return JSON.stringify(fill(schema, page, (schema.$defs ?? {}) as Record<string, Schema>));
}
