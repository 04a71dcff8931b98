/**
 * web_search input, shared by the engine, REST and MCP. Out-of-range numbers are clamped rather than
 * rejected (agents often ask for 100 results); domains are normalised (normalizeDomain) and rejected
 * when they are not host names. Unknown keys are stripped, so transports can pass their wider input
 * (providers, no_cache) through; a transport that wants to reject unknown keys uses `.strict()`.
 */
import { z } from "zod";
import { deadlineField, queryField, resultCountField } from "@/lib/engine/shared/input-fields";
import { normalizeDomain } from "./domains";

export const MAX_QUERY_CHARS = 2_000;
const DEFAULT_MAX_RESULTS = 10;
const MAX_RESULTS_CAP = 50;
export const DEFAULT_TIMEOUT_MS = 10_000;
const MIN_TIMEOUT_MS = 100;
const MAX_TIMEOUT_MS = 60_000;
const MAX_DOMAINS = 100;

const domain = z
  .string()
  .max(253)
  .transform((value, ctx) => {
    const host = normalizeDomain(value);
    if (host === null) {
      ctx.addIssue({ code: "custom", message: `not a domain name: ${value.slice(0, 80)}` });
      return z.NEVER;
    }
    return host;
  });

export const domainList = z
  .array(domain)
  .max(MAX_DOMAINS)
  .default([])
  .transform((domains) => [...new Set(domains)]);

/**
 * How a search picks whom to ask. `auto` calls the providers the caller chose as the ones expected to keep
 * the fused quality (lib/pipeline/contribution); the engine calls the given ones all at once, as in fanout.
 */
const SEARCH_MODES = ["fanout", "auto", "budget", "single"] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

export const searchModeField = z
  .enum(SEARCH_MODES)
  .describe("auto: free + useful paid; budget: cheapest first; single: first to answer");

/** What a search looks for: web pages, or news articles from the providers with a news mode. */
const SEARCH_TOPICS = ["general", "news"] as const;
export type SearchTopic = (typeof SEARCH_TOPICS)[number];

const languageNames = new Intl.DisplayNames(["en"], { type: "language", fallback: "none" });

/** An ISO 639-1 code that names a language ("jp" and "zz" do not), lowercase. */
const languageField = z
  .string()
  .regex(/^[A-Za-z]{2}$/, "two-letter ISO 639-1 language code")
  .transform((code) => code.toLowerCase())
  .refine((code) => languageNames.of(code) !== undefined, "not an ISO 639-1 language code")
  .describe("ISO 639-1, e.g. de");

export const searchInputSchema = z.object({
  query: queryField(
    MAX_QUERY_CHARS,
    'Takes site:, -site:, filetype:, intitle:, "phrase", before:/after:YYYY-MM-DD',
  ),
  max_results: resultCountField({ defaultCount: DEFAULT_MAX_RESULTS, cap: MAX_RESULTS_CAP }),
  mode: searchModeField.default("fanout"),
  timeout_ms: deadlineField({ defaultMs: DEFAULT_TIMEOUT_MS, minMs: MIN_TIMEOUT_MS, maxMs: MAX_TIMEOUT_MS }),
  time_range: z.enum(["day", "week", "month", "year"]).optional(),
  region: z
    .string()
    .regex(/^[A-Za-z]{2}$/, "two-letter country code")
    .transform((code) => code.toLowerCase())
    .optional()
    .describe("Country code, e.g. us"),
  safesearch: z.enum(["off", "moderate", "strict"]).optional(),
  topic: z.enum(SEARCH_TOPICS).default("general"),
  language: languageField.optional(),
  include_domains: domainList.describe("Only these (and subdomains)"),
  exclude_domains: domainList.describe("Not these (and subdomains)"),
});

/** What callers send (defaults optional). */
export type SearchInputRaw = z.input<typeof searchInputSchema>;
/** After validation: defaults applied, numbers clamped, domains normalised. */
export type SearchInput = z.output<typeof searchInputSchema>;
