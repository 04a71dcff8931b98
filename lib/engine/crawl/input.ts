/**
 * crawl input, shared by the engine, REST and MCP. Limits are clamped rather than refused (like every
 * tool's counts); the page limit's default and cap depend on the mode, so the engine resolves it
 * (`pageLimit`). Path patterns are simple globs on the URL path (`*` matches anything, `/docs/*`).
 */
import { z } from "zod";
import { clampedInteger, deadlineField } from "@/lib/engine/shared/input-fields";

export const CRAWL_LIMITS = {
  depth: { defaultValue: 2, max: 5 },
  pages: { defaultValue: 10, max: 50 },
  map: { defaultValue: 100, max: 500 },
  /** Characters of content per page, and for the whole result: about 25k tokens, what an agent can take. */
  chars: { defaultValue: 8_000, min: 100, max: 50_000 },
  totalChars: 100_000,
  /** At most 240 s: within the tools route's 300 s maxDuration, with room to answer. */
  timeout: { defaultMs: 60_000, minMs: 1_000, maxMs: 240_000 },
  patterns: 20,
} as const;

const pathPatterns = (what: string) =>
  z
    .array(
      z
        .string()
        .trim()
        .min(1)
        .max(200)
        .refine((pattern) => pattern.startsWith("/") || pattern.startsWith("*"), {
          message: "a path pattern starts with / or *",
        }),
    )
    .max(CRAWL_LIMITS.patterns)
    .optional()
    .describe(what);

export const crawlInputSchema = z.object({
  url: z
    .string()
    .trim()
    .min(1)
    .max(8_192)
    .refine((value) => URL.canParse(value), { message: "not an absolute URL", abort: true })
    .refine((value) => /^https?:$/.test(new URL(value).protocol), "only http and https URLs can be crawled")
    .describe("Start page; only its site is followed"),
  mode: z.enum(["pages", "map"]).default("pages").describe("map: only URLs and titles"),
  max_depth: z
    .number()
    .int()
    .min(0)
    .default(CRAWL_LIMITS.depth.defaultValue)
    .transform((n) => Math.min(n, CRAWL_LIMITS.depth.max))
    .meta({ minimum: 0, maximum: CRAWL_LIMITS.depth.max })
    .describe("Link hops (0: the start page only)"),
  max_pages: z
    .number()
    .int()
    .min(1)
    .optional()
    .meta({ minimum: 1, maximum: CRAWL_LIMITS.map.max })
    .describe(
      `Default ${CRAWL_LIMITS.pages.defaultValue}, at most ${CRAWL_LIMITS.pages.max} (map: ${CRAWL_LIMITS.map.defaultValue}, ${CRAWL_LIMITS.map.max})`,
    ),
  format: z.enum(["markdown", "text", "html"]).default("markdown"),
  max_chars: clampedInteger(CRAWL_LIMITS.chars).describe(`Per page (${CRAWL_LIMITS.totalChars} in all)`),
  include_paths: pathPatterns('Only paths matching a glob, e.g. "/docs/*"'),
  exclude_paths: pathPatterns("Skip paths matching a glob"),
  timeout_ms: deadlineField(CRAWL_LIMITS.timeout),
});

export type CrawlInputRaw = z.input<typeof crawlInputSchema>;
export type CrawlInput = z.output<typeof crawlInputSchema>;

/**
 * A crawl run as a background job (`async: true`, or more pages than one request can read in time): higher
 * page caps, a larger result (kept in the database, read back in pages of the job's status), and a deadline
 * of its own instead of timeout_ms.
 */
export const CRAWL_JOB_LIMITS = {
  pages: 500,
  map: 2_000,
  totalChars: 2_000_000,
  deadlineMs: 30 * 60_000,
  /**
   * A job that lists fewer than `minPages` pages in a minute, once its first minutes are past, ends early
   * (`slow_progress`): a site answering that slowly would hold a job slot for the whole deadline for a few
   * pages. Four pages at once, so this floor is a page taking about 48 s.
   */
  progressFloor: { graceMs: 2 * 60_000, windowMs: 60_000, minPages: 5 },
} as const;

/** The least progress a crawl job must make to go on (CRAWL_JOB_LIMITS.progressFloor). */
export interface ProgressFloor {
  /** No check before this: a crawl's start (robots.txt, the sitemaps, the first pages) may be slow. */
  graceMs: number;
  /** The pages listed within each window of this length are counted. */
  windowMs: number;
  minPages: number;
}

/** Whether a crawl runs as a job: asked to, or asking more pages than a synchronous crawl reads. */
export function runsAsJob(input: { async?: unknown; mode?: unknown; max_pages?: unknown }): boolean {
  if (input.async === true) return true;
  const syncCap = CRAWL_LIMITS[input.mode === "map" ? "map" : "pages"].max;
  return typeof input.max_pages === "number" && input.max_pages > syncCap;
}

/** `max_pages`, defaulted and capped by mode (and, for a job, by the job's caps). */
export function pageLimit(input: Pick<CrawlInput, "mode" | "max_pages">, job = false): number {
  const mode = input.mode === "map" ? "map" : "pages";
  const limits = CRAWL_LIMITS[mode];
  return Math.min(input.max_pages ?? limits.defaultValue, job ? CRAWL_JOB_LIMITS[mode] : limits.max);
}
