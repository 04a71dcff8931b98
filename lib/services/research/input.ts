import { z } from "zod";
import { clampedInteger, queryField } from "@/lib/engine/shared/input-fields";
import { outputSchemaField } from "@/lib/services/extract/input";

export const researchInput = z.strictObject({
  question: queryField(1_000, "The question to research, in plain words"),
  max_queries: clampedInteger({ min: 1, max: 8, defaultValue: 4 }).describe(
    "Searches to run: the question and its reformulations (default 4, clamped to 1–8)",
  ),
  max_pages: clampedInteger({ min: 1, max: 20, defaultValue: 8 }).describe(
    "Pages to read for the report: the best of all searches' results (default 8, clamped to 1–20)",
  ),
  max_cost_usd: z
    .number()
    .min(0.001)
    .max(1_000)
    .optional()
    .describe(
      "Stop starting new steps once the job's calls have cost this much (USD); budgets apply besides",
    ),
  providers: z
    .array(z.string().trim().toLowerCase().min(1).max(40))
    .min(1)
    .max(30)
    .optional()
    .describe("Search only with these provider ids; default: every available provider"),
  output_schema: outputSchemaField("output_schema")
    .optional()
    .describe(
      "JSON Schema the result's `data` fills from the pages read, each value cited in data_citations (object root, ≤16 KB, ≤12 levels, no pattern)",
    ),
});

export type ResearchInput = z.output<typeof researchInput>;
