import { z } from "zod";
import { MAX_SCHEMA_BYTES, MAX_SCHEMA_DEPTH, schemaProblem } from "@/lib/engine/extract/schema";
import { fetchUrlField } from "@/lib/engine/fetch/input";
import { deadlineField } from "@/lib/engine/shared/input-fields";
import { noCacheField } from "@/lib/pipeline/validate";
import { extractProviders } from "@/lib/providers/extract";
import { fetchProviders } from "@/lib/providers/fetch";

const MAX_EXTRACT_URLS = 20;
const MAX_PROMPT_CHARS = 2_000;

const extractorIds = extractProviders.map((provider) => provider.id) as [string, ...string[]];

/** A JSON Schema a caller hands in: an object here, checked as a schema (bounds, validity) by its refinement. */
export function outputSchemaField(field: string) {
  return z
    .record(z.string(), z.unknown())
    .superRefine((schema, ctx) => {
      const problem = schemaProblem(schema, field);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .describe(
      `JSON Schema (2020-12) with "type": "object" at its root; at most ${MAX_SCHEMA_BYTES} bytes and ${MAX_SCHEMA_DEPTH} levels deep; no pattern`,
    );
}

export const extractToolInput = z.strictObject({
  urls: z
    .array(fetchUrlField(fetchProviders))
    .min(1)
    .max(MAX_EXTRACT_URLS)
    .describe(`1–${MAX_EXTRACT_URLS} pages (http or https); one result per URL, in this order`),
  schema: outputSchemaField("schema"),
  prompt: z
    .string()
    .trim()
    .min(1)
    .max(MAX_PROMPT_CHARS)
    .optional()
    .describe("What to extract, in words, besides the schema"),
  include_passages: z
    .boolean()
    .optional()
    .describe("true: each result's passages quote the page words each value came from"),
  providers: z
    .array(z.string().trim().toLowerCase().pipe(z.enum(extractorIds)))
    .min(1)
    .max(extractorIds.length)
    .optional()
    .describe("Only these extractors (firecrawl, llm)"),
  timeout_ms: deadlineField({ defaultMs: 90_000, minMs: 5_000, maxMs: 280_000 }),
  no_cache: noCacheField,
});

export type ExtractInput = z.output<typeof extractToolInput>;
