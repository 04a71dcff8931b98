/**
 * answer input, shared by the engine, REST and MCP. timeout_ms is clamped rather than rejected, like
 * web_search's; unknown keys are stripped so transports can pass their wider input through.
 */
import { z } from "zod";
import { deadlineField, queryField } from "@/lib/engine/shared/input-fields";

const MAX_QUERY_CHARS = 2_000;
const DEFAULT_TIMEOUT_MS = 120_000;
const MIN_TIMEOUT_MS = 100;
const MAX_TIMEOUT_MS = 120_000;
const MAX_PROVIDERS = 50;

export const answerInputSchema = z.object({
  query: queryField(MAX_QUERY_CHARS),
  providers: z
    .array(z.string().trim().toLowerCase().min(1))
    .max(MAX_PROVIDERS)
    .optional()
    .describe("Only these provider ids"),
  timeout_ms: deadlineField({ defaultMs: DEFAULT_TIMEOUT_MS, minMs: MIN_TIMEOUT_MS, maxMs: MAX_TIMEOUT_MS }),
});

export type AnswerInputRaw = z.input<typeof answerInputSchema>;
