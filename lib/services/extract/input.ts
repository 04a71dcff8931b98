import { z } from "zod";
import {
  compileSchema,
  type JsonSchema,
  MAX_SCHEMA_BYTES,
  MAX_SCHEMA_DEPTH,
  MAX_SCHEMA_REFS,
  SchemaRefused,
  type SchemaValidator,
  schemaProblem,
} from "@/lib/engine/extract/schema";
import { fetchUrlField } from "@/lib/engine/fetch/input";
import { deadlineField } from "@/lib/engine/shared/input-fields";
import { ServiceError } from "@/lib/pipeline/errors";
import { noCacheField } from "@/lib/pipeline/validate";
import { extractProviders } from "@/lib/providers/extract";
import { fetchProviders } from "@/lib/providers/fetch";

const MAX_EXTRACT_URLS = 20;
const MAX_PROMPT_CHARS = 2_000;

const extractorIds = extractProviders.map((provider) => provider.id) as [string, ...string[]];

/**
 * A JSON Schema a caller hands in: an object here, its bounds checked by the refinement (synchronous, cheap);
 * whether it compiles is `compiledOutputSchema`'s to say, once per request, before anything is fetched.
 */
export function outputSchemaField(field: string) {
  return z
    .record(z.string(), z.unknown())
    .superRefine((schema, ctx) => {
      const problem = schemaProblem(schema, field);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .describe(
      `JSON Schema, object root, ≤${MAX_SCHEMA_BYTES / 1024} KB, ≤${MAX_SCHEMA_DEPTH} levels, ≤${MAX_SCHEMA_REFS} $ref, no pattern`,
    );
}

/** The validator of a caller's schema (compiled in a worker); invalid input when it does not compile. */
export async function compiledOutputSchema(
  schema: JsonSchema,
  field: string,
  signal?: AbortSignal,
): Promise<SchemaValidator> {
  try {
    return await compileSchema(schema, field, signal);
  } catch (error) {
    if (error instanceof SchemaRefused) throw new ServiceError("invalid_input", error.message);
    throw error;
  }
}

export const extractToolInput = z.strictObject({
  urls: z.array(fetchUrlField(fetchProviders)).min(1).max(MAX_EXTRACT_URLS),
  schema: outputSchemaField("schema"),
  prompt: z.string().trim().min(1).max(MAX_PROMPT_CHARS).optional().describe("What to look for"),
  include_passages: z.boolean().optional().describe("Quote the words each value came from"),
  providers: z
    .array(z.string().trim().toLowerCase().pipe(z.enum(extractorIds)))
    .min(1)
    .max(extractorIds.length)
    .optional()
    .describe(extractorIds.join(", ")),
  timeout_ms: deadlineField({ defaultMs: 90_000, minMs: 5_000, maxMs: 280_000 }),
  no_cache: noCacheField,
});

export type ExtractInput = z.output<typeof extractToolInput>;
