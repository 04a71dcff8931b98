import { describe, expect, it } from "vitest";
import { z } from "zod";
import { withCachedJsonSchema } from "@/lib/mcp/cached-json-schema";
import { tools } from "@/lib/tools/table";

describe("withCachedJsonSchema", () => {
  const schema = z.strictObject({ query: z.string().min(1), limit: z.number().int().default(5) });
  const cached = withCachedJsonSchema(schema);
  const target = { target: "draft-2020-12" } as const;

  it("converts once per direction and target, and hands out a frozen copy", () => {
    const first = cached["~standard"].jsonSchema.input(target);
    expect(cached["~standard"].jsonSchema.input(target)).toBe(first);
    expect(first).toEqual(schema["~standard"].jsonSchema.input(target));
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen((first.properties as Record<string, object>).query)).toBe(true);
    // Output differs from input where defaults apply (limit is required in the output).
    expect(cached["~standard"].jsonSchema.output(target).required).toEqual(["query", "limit"]);
    expect(cached["~standard"].jsonSchema.input({ target: "draft-07" })).not.toBe(first);
  });

  it("still validates and parses as the schema itself", async () => {
    expect(await cached["~standard"].validate({ query: "otters" })).toEqual({
      value: { query: "otters", limit: 5 },
    });
    const refused = await cached["~standard"].validate({ query: "" });
    expect("issues" in refused && refused.issues?.[0]?.path).toEqual(["query"]);
    expect(cached.parse({ query: "x", limit: 2 })).toEqual({ query: "x", limit: 2 });
    expect(() => cached.parse({ query: "x", extra: 1 })).toThrow(/unrecognized_keys/);
  });

  it("gives every tool of the table the same JSON Schema as its own schema", () => {
    for (const tool of Object.values(tools)) {
      expect(withCachedJsonSchema(tool.inputSchema)["~standard"].jsonSchema.input(target)).toEqual(
        tool.inputSchema["~standard"].jsonSchema.input(target),
      );
    }
  });
});
