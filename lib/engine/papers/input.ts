/**
 * paper_search input, shared by the engine, REST and MCP. Out-of-range numbers are clamped like
 * web_search's; a year range given backwards is rejected.
 */
import { z } from "zod";
import { deadlineField, queryField, resultCountField } from "@/lib/engine/shared/input-fields";

const MAX_QUERY_CHARS = 2_000;
const DEFAULT_MAX_RESULTS = 10;
const MAX_RESULTS_CAP = 50;
const DEFAULT_TIMEOUT_MS = 15_000;
const MIN_TIMEOUT_MS = 100;
const MAX_TIMEOUT_MS = 60_000;
const MAX_PROVIDERS = 20;

const year = z.number().int().min(1000).max(3000);

export const paperSearchInputSchema = z
  .object({
    query: queryField(MAX_QUERY_CHARS),
    max_results: resultCountField({ defaultCount: DEFAULT_MAX_RESULTS, cap: MAX_RESULTS_CAP }),
    sort: z.enum(["relevance", "date"]).default("relevance"),
    year_from: year.optional(),
    year_to: year.optional(),
    open_access: z.boolean().default(false).describe("Only papers with a free full text"),
    providers: z
      .array(z.string().trim().toLowerCase().min(1))
      .max(MAX_PROVIDERS)
      .optional()
      .describe("arxiv, pubmed, semantic_scholar, openalex"),
    timeout_ms: deadlineField({
      defaultMs: DEFAULT_TIMEOUT_MS,
      minMs: MIN_TIMEOUT_MS,
      maxMs: MAX_TIMEOUT_MS,
    }),
  })
  .refine(
    (input) =>
      input.year_from === undefined || input.year_to === undefined || input.year_from <= input.year_to,
    {
      message: "year_from must not be after year_to",
      path: ["year_from"],
    },
  );

export type PaperSearchInputRaw = z.input<typeof paperSearchInputSchema>;
