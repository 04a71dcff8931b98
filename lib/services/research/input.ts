import { z } from "zod";
import { clampedInteger, queryField } from "@/lib/engine/shared/input-fields";
import { compiledOutputSchema, outputSchemaField } from "@/lib/services/extract/input";

export const researchInput = z.strictObject({
  question: queryField(1_000),
  max_queries: clampedInteger({ min: 1, max: 8, defaultValue: 4 }),
  max_pages: clampedInteger({ min: 1, max: 20, defaultValue: 8 }),
  max_cost_usd: z
    .number()
    .min(0.001)
    .max(1_000)
    .optional()
    .describe("Stop starting steps at this cost (USD)"),
  providers: z
    .array(z.string().trim().toLowerCase().min(1).max(40))
    .min(1)
    .max(30)
    .optional()
    .describe("Only these search providers"),
  output_schema: outputSchemaField("output_schema")
    .optional()
    .describe("JSON Schema for `data`, each value cited"),
});

export type ResearchInput = z.output<typeof researchInput>;

/** A job (or its estimate) is refused now when its output_schema does not compile, not a minute later. */
export async function assertOutputSchemaCompiles({ output_schema }: ResearchInput): Promise<void> {
  if (output_schema) await compiledOutputSchema(output_schema, "output_schema");
}
