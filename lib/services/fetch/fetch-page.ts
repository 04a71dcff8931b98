import { z } from "zod";
import { fetchInputSchemaFor, fetchUrlField, MAX_CHARS_CAP, MIN_CHARS } from "@/lib/engine/fetch/input";
import type { FetchResult } from "@/lib/engine/fetch/run-fetch";
import { assertScope, type TenantContext } from "@/lib/pipeline/context";
import type { OnProgress } from "@/lib/pipeline/provider-attempts";
import { runCall, type ToolCallResult } from "@/lib/pipeline/run-call";
import { noCacheField, parseInput } from "@/lib/pipeline/validate";
import { fetchProviders } from "@/lib/providers/fetch";
import { fetchBatch } from "./fetch-batch";
import {
  assertStepsAvailable,
  documentCacheInput,
  fetchDocument,
  type NoPage,
  pageNotFound,
} from "./fetch-document";
import type { FetchBatch } from "./fetch-many";
import { type PagedFetch, pageOf } from "./page-window";
import { defaultMaxChars, MCP_MAX_CHARS } from "./result-size";

const MAX_URLS = 20;

const urlField = fetchUrlField(fetchProviders);

export const fetchToolInput = fetchInputSchemaFor(fetchProviders)
  .extend({
    url: urlField.optional().describe("Or urls"),
    urls: z.array(urlField).min(1).max(MAX_URLS).optional().describe("In parallel: a result or error each"),
    offset: z
      .number()
      .int()
      .min(0)
      .max(MAX_CHARS_CAP)
      .default(0)
      .describe("A previous result's next_offset (cached, free)"),
    // No schema default: it depends on the surface (result-size.ts), and MCP applies schema defaults itself.
    max_chars: z
      .number()
      .int()
      .min(1)
      .transform((n) => Math.min(Math.max(n, MIN_CHARS), MAX_CHARS_CAP))
      .meta({ minimum: MIN_CHARS, maximum: MAX_CHARS_CAP })
      .optional()
      .describe(`Per result (MCP default ${MCP_MAX_CHARS})`),
    no_cache: noCacheField,
  })
  .strict()
  .superRefine((input, ctx) => {
    if ((input.url === undefined) === (input.urls === undefined))
      ctx.addIssue({ code: "custom", path: ["url"], message: "give either url or urls (not both)" });
  });

type FetchToolInput = z.input<typeof fetchToolInput>;
type FetchPageArgs<I> = {
  ctx: TenantContext;
  input: I;
  /** Told of each provider attempt as it finishes. */
  onProgress?: OnProgress;
  /** The caller went away (client disconnect, MCP cancellation): provider calls stop. */
  signal?: AbortSignal;
};

export type FetchedPage = ToolCallResult<PagedFetch>;
export type FetchedPages = ToolCallResult<FetchBatch>;

/**
 * fetch for a tenant: domain routes, the SSRF-safe direct fetcher (free), then its keyed fetch providers
 * cheapest first, each paid step admitted against the budgets. The whole document is cached per tenant
 * (fetch-document.ts) and the result is one window of it from `offset` (page-window.ts): later pages cost
 * nothing. With `urls`, many pages in one call (fetch-batch.ts).
 */
export function fetchPage(
  args: FetchPageArgs<FetchToolInput & { url: string; urls?: undefined }>,
): Promise<FetchedPage>;
export function fetchPage(args: FetchPageArgs<FetchToolInput>): Promise<FetchedPage | FetchedPages>;
export async function fetchPage({
  ctx,
  input,
  onProgress,
  signal,
}: FetchPageArgs<FetchToolInput>): Promise<FetchedPage | FetchedPages> {
  assertScope(ctx, "fetch");
  const { no_cache, url, urls, offset, max_chars, timeout_ms, ...options } = parseInput(
    fetchToolInput,
    input,
  );
  const window = { offset, maxChars: max_chars ?? defaultMaxChars(ctx.surface) };
  if (urls !== undefined) {
    return fetchBatch(ctx, {
      urls,
      options,
      window,
      timeoutMs: timeout_ms,
      noCache: no_cache,
      signal,
      onProgress,
    });
  }
  const pageUrl = url as string; // the schema requires url or urls
  const document = await runCall<(typeof fetchProviders)[number], FetchResult | NoPage>(ctx, {
    tool: "fetch",
    spanKind: "fetch",
    onProgress,
    registry: fetchProviders,
    // The waterfall applies `providers` / `skip_providers` itself; every available step is offered.
    authorize: (entries) => assertStepsAvailable(options.providers, entries),
    cacheInput: documentCacheInput(pageUrl, options),
    noCache: no_cache,
    run: (entries, admit) =>
      fetchDocument(ctx, { url: pageUrl, options, timeoutMs: timeout_ms, signal }, entries, admit),
    succeeded: (outcome) => ("noPage" in outcome ? 0 : 1),
    failure: (outcome) => ("noPage" in outcome ? pageNotFound(outcome) : undefined),
    summarize: (outcome) =>
      "noPage" in outcome
        ? {}
        : { provider: outcome.provider, final_url: outcome.final_url, chars: outcome.content.length },
  });
  if ("noPage" in document) throw new Error("unreachable: runCall rejects calls where nothing succeeded");
  return { ...pageOf(document, window), cache_hit: document.cache_hit, trace_id: document.trace_id };
}
