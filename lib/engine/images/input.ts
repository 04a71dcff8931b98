/**
 * image_search input, shared by the engine, REST and MCP. Numbers out of range are clamped like
 * web_search's; safesearch defaults to strict, the one level every caller can rely on.
 */
import { z } from "zod";
import { deadlineField, queryField, resultCountField } from "@/lib/engine/shared/input-fields";

const MAX_QUERY_CHARS = 400;
const DEFAULT_MAX_RESULTS = 10;
const MAX_RESULTS_CAP = 50;
const DEFAULT_TIMEOUT_MS = 10_000;

export const imageSearchInputSchema = z.object({
  query: queryField(MAX_QUERY_CHARS),
  max_results: resultCountField({ defaultCount: DEFAULT_MAX_RESULTS, cap: MAX_RESULTS_CAP }),
  safesearch: z.enum(["strict", "moderate", "off"]).default("strict"),
  region: z
    .string()
    .regex(/^[A-Za-z]{2}$/, "two-letter country code")
    .transform((code) => code.toLowerCase())
    .optional()
    .describe("Country code, e.g. us"),
  timeout_ms: deadlineField({ defaultMs: DEFAULT_TIMEOUT_MS, minMs: 100, maxMs: 60_000 }),
});

export type ImageSearchInput = z.output<typeof imageSearchInputSchema>;
