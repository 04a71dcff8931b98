/**
 * similar for a tenant: pages like a given one. Where the workspace (or the operator) has an Exa key, Exa's
 * findSimilar answers it, one provider call through the pipeline (budgets, cache, trace). Otherwise the page
 * is read through the fetch verb (SSRF guard, waterfall, its cache and charges) and a search built from its
 * title and key terms runs through web_search (its providers, mode, cache and charges): that way is traced as
 * those two calls and needs the fetch scope too. Either way the page itself (and with exclude_source_domain
 * its site) is left out, and the response says which way it went.
 */
import { z } from "zod";
import { fetchUrlField } from "@/lib/engine/fetch/input";
import { domainList } from "@/lib/engine/search/input";
import { parseResultUrl } from "@/lib/engine/search/url";
import { resultCountField } from "@/lib/engine/shared/input-fields";
import { withoutPage } from "@/lib/engine/similar/exclude";
import { similarQuery } from "@/lib/engine/similar/query";
import { runSimilar } from "@/lib/engine/similar/run-similar";
import { checkUrl } from "@/lib/http/ssrf";
import type { Env } from "@/lib/pipeline/capabilities";
import { assertScope, type TenantContext, type VerbArgs } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import type { OnProgress } from "@/lib/pipeline/provider-attempts";
import { fetchAllowlistFromEnv } from "@/lib/pipeline/providers/operator-providers";
import { skippedProviders } from "@/lib/pipeline/providers/skipped";
import { tenantProviders } from "@/lib/pipeline/providers/tenant-providers";
import { runCall } from "@/lib/pipeline/run-call";
import { noCacheField, parseInput } from "@/lib/pipeline/validate";
import { fetchProviders } from "@/lib/providers/fetch";
import { similarProviders } from "@/lib/providers/similar";
import { fetchPage } from "@/lib/services/fetch/fetch-page";
import { webSearch } from "@/lib/services/search/web-search";

/** Characters of the page read for its title and key terms. */
const PAGE_CHARS = 20_000;
/** A few more results than asked, so that leaving the page itself out still fills the list. */
const OVERFETCH = 2;
const PROVIDER_TIMEOUT_MS = 15_000;

export const similarInput = z.strictObject({
  url: fetchUrlField(fetchProviders),
  max_results: resultCountField({ defaultCount: 10, cap: 25 }),
  exclude_domains: domainList.describe("Not these (and subdomains)"),
  exclude_source_domain: z.boolean().default(false).describe("Also leave out its site"),
  no_cache: noCacheField,
});

type Args = VerbArgs<TenantContext, typeof similarInput> & { onProgress?: OnProgress; signal?: AbortSignal };
type Parsed = z.output<typeof similarInput>;

/**
 * The SSRF rules that need no DNS, for both ways: a private or internal address is refused with the fetch
 * path's own words before Exa is sent it or the fetcher tries it (the fetcher checks DNS answers too).
 */
export function refuseBlockedUrl(url: string, env: Env): void {
  try {
    checkUrl(new URL(url), { allowlist: fetchAllowlistFromEnv(env) });
  } catch (error) {
    throw new ServiceError(
      "invalid_input",
      `url refused: ${error instanceof Error ? error.message : "blocked"}`,
      {
        url,
      },
    );
  }
}

/** The domains to leave out: the caller's, and with exclude_source_domain the page's own host. */
function excludedDomains({ url, exclude_domains, exclude_source_domain }: Parsed): string[] {
  const host = exclude_source_domain ? parseResultUrl(url)?.host : undefined;
  return host ? [...new Set([...exclude_domains, host])] : exclude_domains;
}

export async function similar({ ctx, input, onProgress, signal }: Args) {
  assertScope(ctx, "search");
  const parsed = parseInput(similarInput, input);
  refuseBlockedUrl(parsed.url, ctx.env);
  const { available } = await tenantProviders(ctx, similarProviders);
  return available.length > 0
    ? similarByProvider(ctx, parsed, { onProgress, signal })
    : similarBySearch(ctx, parsed, { onProgress, signal });
}

async function similarByProvider(
  ctx: TenantContext,
  parsed: Parsed,
  call: Pick<Args, "onProgress" | "signal">,
) {
  const excludeDomains = excludedDomains(parsed);
  const result = await runCall(ctx, {
    onProgress: call.onProgress,
    tool: "similar",
    spanKind: "search",
    registry: similarProviders,
    noCache: parsed.no_cache,
    cacheInput: { url: parsed.url, max_results: parsed.max_results, exclude_domains: excludeDomains },
    run: async ([entry], admit) => {
      if (!entry) throw new Error("unreachable: runCall selects at least one provider");
      const found = await runSimilar({
        url: parsed.url,
        maxResults: parsed.max_results,
        excludeDomains,
        entry,
        timeoutMs: PROVIDER_TIMEOUT_MS,
        admit,
        signal: call.signal,
      });
      return { ...found, providers_skipped: skippedProviders(found.spans) };
    },
    succeeded: (found) => found.providers_succeeded.length,
    summarize: (found) => ({
      results: found.results.length,
      top_urls: found.results.slice(0, 5).map((r) => r.url),
    }),
  });
  return { ...result, url: parsed.url, method: "exa" as const, query: null };
}

async function similarBySearch(
  ctx: TenantContext,
  parsed: Parsed,
  call: Pick<Args, "onProgress" | "signal">,
) {
  const page = await fetchPage({
    ctx,
    input: { url: parsed.url, max_chars: PAGE_CHARS, no_cache: parsed.no_cache },
    ...call,
  });
  const query = similarQuery({ title: page.title, text: page.content });
  if (query === "") {
    throw new ServiceError("invalid_input", "the page has no title or text to build a search from", {
      url: parsed.url,
    });
  }
  const excludeDomains = excludedDomains(parsed);
  const search = await webSearch({
    ctx,
    input: {
      query,
      max_results: parsed.max_results + OVERFETCH,
      exclude_domains: excludeDomains,
      no_cache: parsed.no_cache,
    },
    ...call,
  });
  const results = withoutPage(search.results, [parsed.url, page.final_url], excludeDomains);
  return {
    ...search,
    results: results.slice(0, parsed.max_results),
    url: parsed.url,
    method: "search" as const,
    query,
  };
}

export type SimilarResult = Awaited<ReturnType<typeof similar>>;
