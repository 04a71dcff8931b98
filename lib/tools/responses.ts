/**
 * The public results of the tools as zod schemas, shared by REST
 * and MCP (where the tools declare them as `outputSchema`), and the projections from the verbs' results
 * onto them. The projections copy field by field so that internals (spans, partial) never leak and clients that
 * validate against the published JSON Schema (additionalProperties: false) always accept the result.
 */
import { z } from "zod";
import { SKIP_REASONS, skippedProviders } from "@/lib/pipeline/providers/skipped";
import type { answer } from "@/lib/services/answer/answer";
import type { crawlSite } from "@/lib/services/crawl/crawl-site";
import type { extract } from "@/lib/services/extract/extract";
import type { fetchPage } from "@/lib/services/fetch/fetch-page";
import type { ImageSearchResult } from "@/lib/services/images/image-search";
import type { Lens } from "@/lib/services/lenses/lens";
import type { paperSearch } from "@/lib/services/papers/paper-search";
import type { WebSearchResult } from "@/lib/services/search/web-search";
import type { SimilarResult } from "@/lib/services/similar/similar";

type FetchPageResult = Awaited<ReturnType<typeof fetchPage>>;
type FetchedDocument = Exclude<FetchPageResult, { results: unknown }>;
type FetchBatchItem = Extract<FetchPageResult, { results: unknown }>["results"][number];
type AnswerResult = Awaited<ReturnType<typeof answer>>;
type PaperSearchResult = Awaited<ReturnType<typeof paperSearch>>;
type CrawlSiteResult = Awaited<ReturnType<typeof crawlSite>>;
type ExtractResult = Awaited<ReturnType<typeof extract>>;

/** Written after the response; the id is known at once, so the dashboard can show the call later. */
const traceId = z.string().nullable().describe("Trace of this call (dashboard, GET /api/v1/traces/<id>)");
const source = z.object({ provider: z.string(), rank: z.number() });
const providerSucceeded = z.object({ provider: z.string(), duration_ms: z.number(), count: z.number() });
const providerFailed = z.object({ provider: z.string(), reason: z.string(), duration_ms: z.number() });
const providersSkipped = z
  .array(
    z.object({
      provider: z.string(),
      reason: z
        .enum(SKIP_REASONS)
        .describe(
          "low_contribution: auto mode left it out (its results rarely add to the fused top results); rate_limited: its key is paused until the provider's window resets, or paced; budget: a budget or operator quota is spent; breaker_open: it failed repeatedly and is rested; safesearch: it cannot apply the asked safesearch level; no_news_search: topic news, and it has no news search",
        ),
    }),
  )
  .describe(
    "Providers not asked, and why: nothing was sent or charged (refusals are in providers_failed too)",
  );

const adjustments = z
  .array(z.object({ provider: z.string(), note: z.string() }))
  .describe(
    "What was changed in a provider's request so that it would take it (a region it does not know sent as none, a query cut to its length limit, fewer results than asked): that provider's results answer the changed request",
  );

/**
 * What a call over several providers reports besides its results: who answered, failed or was skipped, and
 * what was adjusted in whose request.
 */
const fannedOut = {
  providers_succeeded: z.array(providerSucceeded),
  providers_failed: z.array(providerFailed),
  providers_skipped: providersSkipped,
  adjustments,
  cache_hit: z.boolean(),
  trace_id: traceId,
  duration_ms: z.number(),
};

/** One fused result; what its fields mean is said once, on `results` (results_by_query repeats the shape). */
const searchResult = z.object({
  title: z.string(),
  url: z.string(),
  snippet: z.string(),
  score: z.number(),
  sources: z.array(source),
  snippet_source: z.enum(["aggregated", "grounded", "fallback"]),
  published_at: z.string().optional(),
  source: z.string().optional(),
  content: z.string().optional(),
  content_error: z.string().optional(),
});
type SearchResultItem = z.infer<typeof searchResult>;

export const searchResponse = z.object({
  query: z.string().optional().describe("The query (absent with queries)"),
  queries: z.array(z.string()).optional(),
  results: z
    .array(searchResult)
    .describe(
      "Fused results (with queries: merged across them, else empty). snippet_source: aggregated (merged from the providers' snippets), grounded (written by the model from the page) or fallback (grounding found no usable page); published_at: ISO 8601 where readable; source: the publisher (news); content: the page as Markdown, or content_error (include_content)",
    ),
  results_by_query: z
    .array(z.object({ query: z.string(), results: z.array(searchResult) }))
    .optional()
    .describe("With queries and no merge: each query's results, in order"),
  ...fannedOut,
});
export type SearchResponse = z.infer<typeof searchResponse>;

/**
 * Page facts vary by source (PDF pages, HTTP status, byline …); extra keys are allowed. The document's length is
 * the response's own `total_chars`, never repeated here: the engine's count of the page before the cache's cap
 * differed from it on long pages.
 */
const pageMetadata = z.looseObject({
  truncated: z
    .boolean()
    .describe(
      "Whether any of the document is left out of `content` (later windows, or past the 1,000,000 cap)",
    ),
});
const fetchedPage = {
  final_url: z.string(),
  title: z.string(),
  content: z.string(),
  format: z.enum(["markdown", "text", "html"]),
  provider: z.string(),
  metadata: pageMetadata,
};

/** One URL's fetch: a window of its document (`offset`, `max_chars`) and where the next one starts. */
const fetchedDocument = z.object({
  url: z.string(),
  ...fetchedPage,
  offset: z.number().describe("Where this content starts in the document, in characters"),
  next_offset: z
    .number()
    .nullable()
    .describe("Pass as offset to read on (served from the cache); null when the content reaches the end"),
  total_chars: z.number().describe("The document's length in characters, as offsets count it"),
  providers_attempted: z.array(z.string()),
  providers_failed: z.array(z.object({ provider: z.string(), reason: z.string() })),
  alternative_results: z.array(z.object(fetchedPage)).optional(),
  cache_hit: z.boolean(),
});
const fetchFailedUrl = z.object({
  url: z.string(),
  error: z.object({
    code: z.string(),
    message: z.string(),
    status: z
      .number()
      .optional()
      .describe("The HTTP status the site answered when it said the page does not exist (404, 410)"),
  }),
});

/** A fetch of one `url` (its paging fields optional here so that a page without them reads as whole). */
const fetchedOne = fetchedDocument.partial({ offset: true, next_offset: true, total_chars: true });
export type FetchResponse = z.infer<typeof fetchedOne> & { trace_id: string | null };

/** One `url`: that page's fields; `urls`: `results`, one page or one error per URL in input order. */
export const fetchResponse = z.object({
  ...fetchedOne.partial().shape,
  results: z
    .array(z.union([fetchedDocument, fetchFailedUrl]))
    .optional()
    .describe("With urls: one page or one error per URL, in input order"),
  cache_hit: z.boolean().describe("With urls: whether every page came from the cache"),
  trace_id: traceId,
});
export type FetchToolResponse = z.infer<typeof fetchResponse>;

const citation = z.object({ title: z.string(), url: z.string() });

export const answerResponse = z.object({
  query: z.string(),
  answers: z.array(
    z.object({
      provider: z.string(),
      model: z.string(),
      answer: z.string(),
      citations: z.array(citation),
      duration_ms: z.number(),
    }),
  ),
  agreement: z.object({
    answers: z.number(),
    shared_citations: z.array(
      z.object({ url: z.string(), title: z.string(), providers: z.array(z.string()) }),
    ),
  }),
  providers_failed: z.array(providerFailed),
  providers_skipped: providersSkipped,
  cache_hit: z.boolean(),
  trace_id: traceId,
  duration_ms: z.number(),
});
export type AnswerResponse = z.infer<typeof answerResponse>;

export const paperSearchResponse = z.object({
  query: z.string(),
  results: z.array(
    z.object({
      title: z.string(),
      authors: z.array(z.string()),
      year: z.number().nullable(),
      published: z.string().nullable(),
      venue: z.string().nullable(),
      abstract: z.string().nullable(),
      doi: z.string().nullable(),
      arxiv_id: z.string().nullable(),
      pmid: z.string().nullable(),
      url: z.string().nullable(),
      pdf_url: z.string().nullable(),
      citation_count: z.number().nullable(),
      open_access: z.boolean(),
      score: z.number(),
      sources: z.array(source),
    }),
  ),
  providers_succeeded: z.array(providerSucceeded),
  providers_failed: z.array(providerFailed),
  providers_skipped: providersSkipped,
  cache_hit: z.boolean(),
  trace_id: traceId,
  duration_ms: z.number(),
});
export type PaperSearchResponse = z.infer<typeof paperSearchResponse>;

export const lensResponse = z.object({
  name: z.string(),
  description: z.string(),
  domains: z.array(z.string()),
  defaults: z.object({
    time_range: z.enum(["day", "week", "month", "year"]).optional(),
    region: z.string().optional(),
    safesearch: z.enum(["off", "moderate", "strict"]).optional(),
  }),
  source: z
    .enum(["built_in", "tenant"])
    .describe("tenant: the workspace's own (replaces a built-in of that name)"),
});
export const lensListResponse = z.object({ lenses: z.array(lensResponse) });

const period = z.enum(["day", "month", "lifetime"]);

/** A provider's free tier with what this workspace used of it, in its own unit: requests, or dollars of credit. */
export const freeTierStatus = z
  .object({
    requests: z.number().optional().describe("Free requests per period (a tier counted in requests)"),
    usd: z.number().optional().describe("Free credit in USD per period (a tier counted in dollars)"),
    period,
    used: z.number().describe("Used this period, in the tier's unit (requests, or USD)"),
    remaining: z.number().describe("Left this period, in the tier's unit (requests, or USD)"),
  })
  .nullable();

export const budgetStatusResponse = z.object({
  budgets: z.array(
    z.object({
      id: z.string().optional().describe("Only with the admin scope"),
      name: z.string().describe('Provider, metric and period, e.g. "brave · requests · month"'),
      provider: z.string().describe("A provider id, or * for all providers together"),
      metric: z.enum(["requests", "usd"]),
      period,
      anchor_day: z
        .number()
        .int()
        .nullable()
        .describe("Day of the month a monthly period starts on (UTC); null for day and lifetime"),
      limit: z.number(),
      soft: z.number().nullable().optional().describe("Only with the admin scope"),
      used: z.number(),
      remaining: z.number(),
      soft_exceeded: z.boolean(),
      resets_at: z.string().nullable().describe("When the current period ends (UTC); null for lifetime"),
    }),
  ),
  operator_quotas: z
    .array(
      z.object({
        metric: z.enum(["requests", "usd"]),
        period: z.enum(["day", "month"]),
        limit: z.number(),
        used: z.number(),
        remaining: z.number(),
        resets_at: z.string(),
      }),
    )
    .optional()
    .describe(
      "The operator's limits on this workspace's calls with the operator's provider keys or model (a key of the workspace's own is not counted); empty when unlimited, absent on the local bridge",
    ),
  providers: z.array(
    z.object({
      provider: z.string(),
      requests: z.object({ today: z.number(), month: z.number(), lifetime: z.number() }),
      usd: z.object({ today: z.number(), month: z.number() }),
      free_tier: freeTierStatus,
    }),
  ),
  search_contributions: z
    .object({
      observations: z
        .number()
        .describe(
          "Recent searches that asked every provider, newest weighing most, that these figures come from",
        ),
      providers: z.array(
        z.object({
          provider: z.string(),
          searches: z.number().describe("Of those searches, the ones that called it"),
          top_results_per_search: z.number().describe("Fused top-10 results it found, per search"),
          only_source_per_search: z.number().describe("Fused top-10 results only it found, per search"),
          cost_per_useful_result_usd: z
            .number()
            .nullable()
            .describe("Its price per call over the top results it finds per call; null when it found none"),
          measured: z
            .boolean()
            .describe("Observed often enough for auto mode to leave it out; until then auto calls it"),
        }),
      ),
    })
    .optional()
    .describe(
      "What each search provider adds to this workspace's fused results (what auto mode decides by); absent on the local bridge",
    ),
  alerts: z
    .array(
      z.object({
        budget_id: z.string(),
        budget: z.string().describe("The budget's name"),
        kind: z.string(),
        period: z.string(),
        at: z.string(),
      }),
    )
    .describe("Recent soft-limit and exhaustion alerts; empty without the admin scope"),
});
export type BudgetStatusResponse = z.infer<typeof budgetStatusResponse>;

const failedWithDuration = (failures: ReadonlyArray<z.infer<typeof providerFailed>>) =>
  failures.map(({ provider, reason, duration_ms }) => ({ provider, reason, duration_ms }));

const succeeded = (successes: ReadonlyArray<z.infer<typeof providerSucceeded>>) =>
  successes.map(({ provider, duration_ms, count }) => ({ provider, duration_ms, count }));

const sources = (list: ReadonlyArray<z.infer<typeof source>>) =>
  list.map(({ provider, rank }) => ({ provider, rank }));

type FoundResult = WebSearchResult["results"][number];

const searchResultOf = (r: FoundResult): SearchResultItem => ({
  title: r.title,
  url: r.url,
  snippet: r.snippet,
  score: r.score,
  sources: sources(r.sources),
  snippet_source: r.snippet_source,
  ...(r.publishedAt !== undefined && { published_at: r.publishedAt }),
  ...(r.source !== undefined && { source: r.source }),
  ...(r.content !== undefined && { content: r.content }),
  ...(r.content_error !== undefined && { content_error: r.content_error }),
});

type FannedOut = {
  providers_succeeded: ReadonlyArray<z.infer<typeof providerSucceeded>>;
  providers_failed: ReadonlyArray<z.infer<typeof providerFailed>>;
  providers_skipped: ReadonlyArray<{ provider: string; reason: (typeof SKIP_REASONS)[number] }>;
  /** Absent from results cached before adjustments were reported. */
  adjustments?: ReadonlyArray<z.infer<typeof adjustments>[number]>;
  cache_hit: boolean;
  trace_id: string | null;
  duration_ms: number;
};

const fanOutOf = (result: FannedOut) => ({
  providers_succeeded: succeeded(result.providers_succeeded),
  providers_failed: failedWithDuration(result.providers_failed),
  providers_skipped: result.providers_skipped.map(({ provider, reason }) => ({ provider, reason })),
  adjustments: (result.adjustments ?? []).map(({ provider, note }) => ({ provider, note })),
  cache_hit: result.cache_hit,
  trace_id: result.trace_id,
  duration_ms: result.duration_ms,
});

export function toSearchResponse(result: WebSearchResult): SearchResponse {
  const { queries, by_query: byQuery } = result;
  return {
    ...(queries ? { queries: [...queries] } : { query: result.query }),
    results: result.results.map(searchResultOf),
    ...(byQuery &&
      !result.merged && {
        results_by_query: byQuery.map((q) => ({ query: q.query, results: q.results.map(searchResultOf) })),
      }),
    ...fanOutOf(result),
  };
}

export function toLensResponse(lens: Lens): z.infer<typeof lensResponse> {
  return {
    name: lens.name,
    description: lens.description,
    domains: [...lens.domains],
    defaults: { ...lens.defaults },
    source: lens.source,
  };
}

type FetchedPage = Pick<
  FetchedDocument,
  "final_url" | "title" | "content" | "format" | "provider" | "metadata"
>;

const page = (p: FetchedPage) => {
  const { total_chars: _, ...metadata } = p.metadata;
  return {
    final_url: p.final_url,
    title: p.title,
    content: p.content,
    format: p.format,
    provider: p.provider,
    metadata,
  };
};

const document = (result: Omit<FetchedDocument, "trace_id">) => ({
  url: result.url,
  ...page(result),
  offset: result.offset,
  next_offset: result.next_offset,
  total_chars: result.total_chars,
  providers_attempted: [...result.providers_attempted],
  providers_failed: result.providers_failed.map(({ provider, reason }) => ({ provider, reason })),
  ...(result.alternative_results ? { alternative_results: result.alternative_results.map(page) } : {}),
  cache_hit: result.cache_hit,
});

const batchItem = (item: FetchBatchItem) =>
  "error" in item
    ? {
        url: item.url,
        error: {
          code: item.error.code,
          message: item.error.message,
          ...(item.error.status !== undefined && { status: item.error.status }),
        },
      }
    : document(item);

export function toFetchResponse(result: FetchPageResult): FetchToolResponse {
  if ("results" in result) {
    const results = result.results.map(batchItem);
    return {
      results,
      cache_hit: results.every((r) => "cache_hit" in r && r.cache_hit),
      trace_id: result.trace_id,
    };
  }
  return { ...document(result), trace_id: result.trace_id };
}

export function toAnswerResponse(result: AnswerResult): AnswerResponse {
  return {
    query: result.query,
    answers: result.answers.map((a) => ({
      provider: a.provider,
      model: a.model,
      answer: a.answer,
      citations: a.citations.map(({ title, url }) => ({ title, url })),
      duration_ms: a.duration_ms,
    })),
    agreement: {
      answers: result.agreement.answers,
      shared_citations: result.agreement.shared_citations.map(({ url, title, providers }) => ({
        url,
        title,
        providers: [...providers],
      })),
    },
    providers_failed: failedWithDuration(result.providers_failed),
    providers_skipped: skippedProviders(result.spans),
    cache_hit: result.cache_hit,
    trace_id: result.trace_id,
    duration_ms: result.duration_ms,
  };
}

export function toPaperSearchResponse(result: PaperSearchResult): PaperSearchResponse {
  return {
    query: result.query,
    results: result.results.map((p) => ({
      title: p.title,
      authors: [...p.authors],
      year: p.year,
      published: p.published,
      venue: p.venue,
      abstract: p.abstract,
      doi: p.doi,
      arxiv_id: p.arxiv_id,
      pmid: p.pmid,
      url: p.url,
      pdf_url: p.pdf_url,
      citation_count: p.citation_count,
      open_access: p.open_access,
      score: p.score,
      sources: sources(p.sources),
    })),
    providers_succeeded: succeeded(result.providers_succeeded),
    providers_failed: failedWithDuration(result.providers_failed),
    providers_skipped: skippedProviders(result.spans),
    cache_hit: result.cache_hit,
    trace_id: result.trace_id,
    duration_ms: result.duration_ms,
  };
}

export const crawlResponse = z.object({
  url: z.string(),
  mode: z.enum(["pages", "map"]),
  pages: z.array(
    z.object({
      url: z.string(),
      final_url: z.string(),
      title: z.string(),
      depth: z.number().describe("Link hops from the start page (sitemap entries: 1)"),
      content: z
        .string()
        .optional()
        .describe("pages mode: the page in the requested format, cut to max_chars"),
      chars: z.number().describe("The page's full length in characters"),
      truncated: z.boolean().optional(),
    }),
  ),
  skipped: z
    .array(z.object({ url: z.string(), reason: z.string() }))
    .describe("Not fetched: robots.txt, include/exclude paths, a redirect off the site (first 100)"),
  errors: z.array(z.object({ url: z.string(), code: z.string(), message: z.string() })),
  counts: z.object({
    pages: z.number(),
    skipped: z.number(),
    errors: z.number(),
    off_site: z.number().describe("Distinct links to other sites, not followed"),
  }),
  stopped: z
    .enum(["complete", "depth", "page_limit", "char_limit", "deadline", "slow_progress"])
    .describe(
      "Why the crawl ended: nothing left, links beyond max_depth, max_pages, the result's size, timeout_ms, or (a job) the site answering too slowly to go on",
    ),
  note: z.string().optional(),
  cache_hit: z.boolean(),
  trace_id: traceId,
  duration_ms: z.number(),
});
export type CrawlResponse = z.infer<typeof crawlResponse>;

/** A crawl job (POST /api/v1/crawl's 202, GET /api/v1/crawl/<id>): the crawl's result, partial while it runs. */
export const crawlJobResponse = crawlResponse.extend({
  id: z.string().describe("The job's id: GET /api/v1/crawl/<id> for its status and pages"),
  status: z.enum(["queued", "running", "succeeded", "failed", "cancelled"]),
  progress: z.object({
    message: z.string(),
    pages_done: z.number().describe("Pages read so far (listed in pages)"),
    queued: z.number().describe("Pages found and not yet visited"),
  }),
  stopped: crawlResponse.shape.stopped.nullable().describe("Why the crawl ended; null while it runs"),
  error: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});

export function toCrawlResponse(result: CrawlSiteResult): CrawlResponse {
  return {
    url: result.url,
    mode: result.mode,
    pages: result.pages.map((p) => ({
      url: p.url,
      final_url: p.final_url,
      title: p.title,
      depth: p.depth,
      ...(p.content === undefined ? {} : { content: p.content }),
      chars: p.chars,
      ...(p.truncated ? { truncated: true } : {}),
    })),
    skipped: result.skipped.map(({ url, reason }) => ({ url, reason })),
    errors: result.errors.map(({ url, code, message }) => ({ url, code, message })),
    counts: { ...result.counts },
    stopped: result.stopped,
    ...(result.note === undefined ? {} : { note: result.note }),
    cache_hit: result.cache_hit,
    trace_id: result.trace_id,
    duration_ms: result.duration_ms,
  };
}

const foundBy = z.object({ query: z.string(), provider: z.string(), rank: z.number() });

/** A research job (REST 202 and status, MCP task result); `report` once it succeeded. */
export const researchJobResponse = z.object({
  id: z.string().describe("The job's id: GET /api/v1/research/<id> for its status and report"),
  status: z.enum(["queued", "running", "succeeded", "failed", "cancelled"]),
  question: z.string(),
  progress: z.object({
    phase: z.enum(["queued", "planning", "searching", "reading", "writing", "done"]),
    message: z.string(),
    done: z.number().describe("Steps done: the plan, each search, the reading, the report"),
    total: z.number(),
  }),
  report: z
    .string()
    .nullable()
    .describe(
      "The cited report in Markdown: [n] after each claim refers to sources[n-1], a page that was read",
    ),
  sources: z.array(
    z.object({
      n: z.number(),
      url: z.string(),
      title: z.string(),
      found_by: z
        .array(foundBy)
        .describe("The searches and providers that listed the page, with their ranks"),
      published_at: z
        .string()
        .optional()
        .describe("When the page was published, where a listing said (ISO 8601)"),
    }),
  ),
  partial: z.boolean().describe("The job stopped early (stop_reason); the report covers what it found"),
  stop_reason: z.enum(["budget_exhausted", "cost_limit", "deadline"]).nullable(),
  error: z.string().nullable(),
  trace_id: traceId,
  cost_usd: z.number().describe("What the job's calls cost so far, model and providers"),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  data: z.unknown().optional().describe("With output_schema: values valid against it (null with data_error)"),
  data_citations: z
    .record(z.string(), z.array(z.string()))
    .optional()
    .describe("JSON pointer of each value in data → URLs of the pages read that state it"),
  data_error: z.string().optional().describe("Why data is null"),
});
export type ResearchJobResponse = z.infer<typeof researchJobResponse>;

const extractPassage = z.object({
  path: z.string().describe("JSON pointer of the value in data"),
  text: z.string().describe("The page's words it came from, found in the page text"),
});
const extractedPage = z.object({
  url: z.string(),
  data: z.unknown().describe("The page's values, valid against the schema"),
  provider: z
    .string()
    .describe("The extractor that filled it: firecrawl, workspace_llm (the workspace's own model) or llm"),
  passages: z.array(extractPassage).optional().describe("With include_passages"),
  cache_hit: z.boolean(),
});
const extractFailedUrl = z.object({
  url: z.string(),
  error: z.object({
    code: z
      .string()
      .describe(
        "page_too_long, invalid_output, invalid_input (a refused address), a fetch or provider reason",
      ),
    message: z.string(),
  }),
});

export const extractResponse = z.object({
  results: z.array(z.union([extractedPage, extractFailedUrl])).describe("One per URL, in input order"),
  trace_id: traceId,
});
export type ExtractResponse = z.infer<typeof extractResponse>;

export function toExtractResponse(result: ExtractResult): ExtractResponse {
  return {
    results: result.results.map((item) =>
      "error" in item
        ? { url: item.url, error: { code: item.error.code, message: item.error.message } }
        : {
            url: item.url,
            data: item.data,
            provider: item.provider,
            ...(item.passages && { passages: item.passages.map(({ path, text }) => ({ path, text })) }),
            cache_hit: item.cache_hit === true,
          },
    ),
    trace_id: result.trace_id,
  };
}

export const imageSearchResponse = z.object({
  query: z.string(),
  results: z.array(
    z.object({
      image_url: z.string(),
      thumbnail_url: z.string().nullable(),
      title: z.string(),
      page_url: z.string().nullable().describe("The page the image is on"),
      width: z.number().int().nullable(),
      height: z.number().int().nullable(),
      score: z.number(),
      sources: z.array(source),
    }),
  ),
  ...fannedOut,
});
export type ImageSearchResponse = z.infer<typeof imageSearchResponse>;

export function toImageSearchResponse(result: ImageSearchResult): ImageSearchResponse {
  return {
    query: result.query,
    results: result.results.map((image) => ({
      image_url: image.image_url,
      thumbnail_url: image.thumbnail_url,
      title: image.title,
      page_url: image.page_url,
      width: image.width,
      height: image.height,
      score: image.score,
      sources: sources(image.sources),
    })),
    ...fanOutOf(result),
  };
}

export const similarResponse = z.object({
  url: z.string(),
  method: z
    .enum(["exa", "search"])
    .describe("exa: Exa's findSimilar; search: a web search built from the page's title and key terms"),
  query: z.string().nullable().describe("The search built from the page (method search)"),
  results: searchResponse.shape.results,
  ...fannedOut,
});
export type SimilarResponse = z.infer<typeof similarResponse>;

export function toSimilarResponse(result: SimilarResult): SimilarResponse {
  return {
    url: result.url,
    method: result.method,
    query: result.query,
    results: result.results.map(searchResultOf),
    ...fanOutOf(result),
  };
}
