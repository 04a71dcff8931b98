/**
 * The price table: what every provider's tools cost and the free tier of its account, each with the page it
 * was read from and when. Data only; registrations read their `price` from here, and the operator corrects any
 * entry without a release with SEARCHMUX_PRICES (lib/pipeline/providers/prices.ts).
 *
 * Keys: `<provider id>` is the provider's account and the tool it is mainly used for (its web search, or its
 * only tool), and carries the account's free tier; `<provider id>/<kind>` (fetch, answer, extract) is another
 * tool of the same account that bills differently, sharing the account's free tier. Tools that bill alike
 * (Brave's images and news, Exa's find-similar) use the account's key. Prices are USD; a provider that bills in
 * credits is converted at the credit price the source names, said in the note.
 */
import type { FreeTier, ListedPrice } from "@/lib/engine/shared/types";

const CHECKED = "2026-12-01";

type Entry = Omit<ListedPrice, "key" | "as_of" | "free_tier"> & { free_tier?: FreeTier | null };

/** A provider that charges nothing a call: keyless, or the operator's and workspaces' own models. */
const free = (source: string, note?: string): Entry => ({
  usd_per_request: 0,
  source,
  ...(note && { note }),
});

const FIRECRAWL_CREDIT_USD = 0.0053;
const TAVILY_CREDIT_USD = 0.008;

const ENTRIES = {
  // Web search (and, where named, the provider's other tools).
  brave: {
    usd_per_request: 0.005,
    free_tier: { usd: 5, period: "month" },
    source: "https://api-dashboard.search.brave.com/app/plans",
    note: "Search plan: $5 per 1,000 requests, $5 in free credits every month (about 1,000 requests); web, news and images alike",
  },
  brave_answer: {
    usd_per_request: 0.004,
    usd_per_million_tokens: [5, 5],
    free_tier: { usd: 5, period: "month" },
    source: "https://api-dashboard.search.brave.com/app/plans",
    note: "Answers plan (a key of its own): $4 per 1,000 queries plus $5 per million input and output tokens, $5 in free credits every month. The tokens charged are those of the stream's <usage> tag (X-Request-Tokens-In/Out, brave/brave-search-skills skills/answers/SKILL.md); the reservation's ceiling is the query, 8,192 tokens of search context and the 4,096 output tokens the adapter asks for at most",
  },
  duckduckgo: free(
    "https://duckduckgo.com/duckduckgo-help-pages/results/syntax/",
    "keyless HTML results: no charge",
  ),
  exa: {
    usd_per_request: 0.007,
    results_included: 10,
    usd_per_extra_result: 0.001,
    free_tier: { usd: 10, period: "month" },
    source: "https://exa.ai/docs/reference/pricing",
    note: "Search: $7 per 1,000 requests with up to 10 results, $1 per 1,000 results beyond 10 (https://exa.ai/docs/changelog/pricing-update, March 2026); the Free Tier adds $10 in credits every month. Find-similar is billed as a search",
  },
  "exa/answer": {
    usd_per_request: 0.005,
    source: "https://exa.ai/docs/reference/pricing",
    note: "Answer: $5 per 1,000 requests",
  },
  "exa/fetch": {
    usd_per_request: 0.001,
    source: "https://exa.ai/docs/reference/pricing",
    note: "Contents: $1 per 1,000 pages",
  },
  firecrawl: {
    usd_per_request: 2 * FIRECRAWL_CREDIT_USD,
    results_included: 10,
    usd_per_extra_result: (2 * FIRECRAWL_CREDIT_USD) / 10,
    results_per_block: 10,
    free_tier: { usd: 500 * FIRECRAWL_CREDIT_USD, period: "lifetime" },
    source: "https://docs.firecrawl.dev/billing",
    note: `Search: 2 credits per 10 results, rounded up per 10 (11 results = 4 credits), pages not scraped. Credit at $${FIRECRAWL_CREDIT_USD} (Hobby: $16 for 3,000 credits, as read before; https://www.firecrawl.dev/pricing was not in the material searched this time). Free tier: 500 credits once, at that credit price`,
  },
  "firecrawl/fetch": {
    usd_per_request: FIRECRAWL_CREDIT_USD,
    source: "https://docs.firecrawl.dev/billing",
    note: "Scrape: 1 credit a page",
  },
  "firecrawl/extract": {
    usd_per_request: 5 * FIRECRAWL_CREDIT_USD,
    source: "https://docs.firecrawl.dev/billing",
    note: "Scrape with JSON format (LLM extraction): 1 + 4 credits a page",
  },
  jina: {
    usd_per_request: 0.0005,
    free_tier: { requests: 1000, period: "lifetime" },
    source: "https://jina.ai/api-dashboard/pricing/",
    note: "s.jina.ai takes a fixed 10,000 tokens a request; the price per token was not in the material searched, so $0.0005 is kept. Free: 10 million tokens once (1,000 searches)",
  },
  "jina/fetch": {
    usd_per_request: 0.0002,
    source: "https://jina.ai/api-dashboard/pricing/",
    note: "r.jina.ai is billed by the tokens of its answer; no public per-page price: $0.0002 kept",
  },
  kagi: {
    usd_per_request: 0.012,
    source: "https://help.kagi.com/kagi/api/api-portal.html",
    note: "Search API: $12 per 1,000 queries",
  },
  "kagi/answer": {
    usd_per_request: 0.015,
    source: "https://help.kagi.com/kagi/api/fastgpt.html",
    note: "FastGPT: $15 per 1,000 queries with web search",
  },
  linkup: {
    usd_per_request: 0.005,
    free_tier: { usd: 20, period: "month" },
    source: "https://docs.linkup.so/pages/documentation/platform/pricing",
    note: 'Search, depth "standard", outputType "searchResults": $0.005; eligible accounts are topped up to $20 each month',
  },
  perplexity: {
    usd_per_request: 0.005,
    source: "https://docs.perplexity.ai/guides/pricing",
    note: "Search API: $5 per 1,000 requests, no token costs",
  },
  "perplexity/answer": {
    usd_per_request: 0.005,
    usd_per_million_tokens: [1, 1],
    source: "https://docs.perplexity.ai/guides/pricing",
    note: "Sonar: $1 per million input and output tokens plus a request fee by search context size; the low-context fee ($5 per 1,000) is not on the page's text, it is from Perplexity's request-pricing tab as third parties transcribe it. The tokens charged are the answer's usage (prompt_tokens, completion_tokens); the reservation's ceiling is the prompt, a token per character, and the 4,096 output tokens the adapter asks for at most",
  },
  searxng: free("https://docs.searxng.org/dev/search_api.html", "the operator's own instance: no charge"),
  serpapi: {
    usd_per_request: 0.015,
    free_tier: { requests: 250, period: "month" },
    source: "https://serpapi.com/pricing",
    note: "Developer plan: $75 a month for 5,000 searches; free plan 250 searches a month. SerpApi's own pricing page was not in the material searched (third-party transcriptions agree): kept",
  },
  serper: {
    usd_per_request: 0.001,
    free_tier: { requests: 2500, period: "lifetime" },
    source: "https://serper.dev",
    note: "Smallest top-up: $50 for 50,000 credits ($1.00 per 1,000), 2,500 free queries once. Serper's page was not in the material searched (third-party transcriptions agree): kept",
  },
  tavily: {
    usd_per_request: TAVILY_CREDIT_USD,
    free_tier: { usd: 1000 * TAVILY_CREDIT_USD, period: "month" },
    source: "https://docs.tavily.com/documentation/api-credits",
    note: "Basic search: 1 credit; pay-as-you-go $0.008 a credit. Free: 1,000 credits a month, in dollars at that price since the tools take different credits",
  },
  "tavily/answer": {
    usd_per_request: 2 * TAVILY_CREDIT_USD,
    source: "https://docs.tavily.com/documentation/api-credits",
    note: "Advanced search with an answer: 2 credits",
  },
  "tavily/fetch": {
    usd_per_request: 0.2 * TAVILY_CREDIT_USD,
    source: "https://docs.tavily.com/documentation/api-credits",
    note: "Basic extract: 1 credit per 5 URLs, one URL a call",
  },
  wikipedia: free("https://www.mediawiki.org/wiki/API:Search", "keyless: no charge"),
  you: {
    usd_per_request: 0.005,
    free_tier: { usd: 100, period: "lifetime" },
    source: "https://docs.you.com/administration/billing",
    note: "Search API: $5 per 1,000 calls (up to 100 results); new accounts get $100 in free credits",
  },

  // Fetch-only providers.
  arxiv: free("https://info.arxiv.org/help/api/user-manual.html", "keyless: no charge"),
  brightdata: {
    usd_per_request: 0.0015,
    source: "https://brightdata.com/pricing/web-unlocker",
    note: "Web Unlocker pay as you go: $1.50 per 1,000 successful requests (as transcribed from the pricing page; docs.brightdata.com confirms per-success billing)",
  },
  diffbot: {
    usd_per_request: 0.0012,
    free_tier: { requests: 10_000, period: "month" },
    source: "https://www.diffbot.com/pricing/",
    note: "1 credit an article; 10,000 free credits a month; Startup $299 for 250,000 credits (as read before; the pricing page was not in the material searched this time): kept",
  },
  direct: free("https://github.com/mozilla/readability", "our own fetch: no charge"),
  github: free("https://docs.github.com/en/rest", "keyless or the operator's token: no charge"),
  reddit: free("https://www.reddit.com/dev/api/", "no charge"),
  scraperapi: {
    usd_per_request: 0.00049,
    free_tier: { requests: 1000, period: "month" },
    source: "https://docs.scraperapi.com/account/credits-and-requests",
    note: "a normal request is 1 credit; Hobby $49 for 100,000 credits, 1,000 free a month (as read before; the pricing page was not in the material searched this time): kept",
  },
  scrapfly: {
    usd_per_request: 0.00015,
    free_tier: { requests: 1000, period: "month" },
    source: "https://scrapfly.io/docs/scrape-api/billing",
    note: "a datacenter request is 1 credit (+5 with browser rendering); Discovery $30 for 200,000 credits, 1,000 free a month (as read before; the pricing page was not in the material searched this time): kept",
  },
  scrapingbee: {
    usd_per_request: 0.00033,
    free_tier: { requests: 1000, period: "lifetime" },
    source: "https://www.scrapingbee.com/pricing/",
    note: "render_js=false is 1 credit; Freelance $49 for 150,000 credits, 1,000 free calls once (as read before; the pricing page was not in the material searched this time): kept",
  },
  spider: {
    usd_per_request: 0.0003,
    source: "https://spider.cloud/credits/new",
    note: "pay as you go, about $0.0003 a plain HTTP page (as read before; the credits page was not in the material searched this time): kept",
  },
  supadata: {
    usd_per_request: 0.003,
    free_tier: { requests: 100, period: "month" },
    source: "https://supadata.ai/pricing",
    note: "1 credit a native transcript, 100 free credits a month, about $0.003 paid (as read before; the pricing page was not in the material searched this time): kept",
  },
  zyte: {
    usd_per_request: 0.0005,
    source: "https://www.zyte.com/pricing/",
    note: "HTTP responses from about $0.0001 to $0.0013 by site tier, $0.0005 typical (as read before; the pricing page was not in the material searched this time): kept",
  },

  // Answer-only providers and models.
  gemini: {
    usd_per_request: 0,
    usd_per_million_tokens: [0.75, 3.75],
    free_tier: { requests: 250, period: "day" },
    source: "https://ai.google.dev/gemini-api/docs/pricing",
    note: 'billed by tokens only, per model: gemini-3.8-flash (the default) $0.75 / $3.75 per million input / output tokens "through December 31, 2026", output including thinking tokens, as a transcription of the pricing page reads (api-evangelist/gemini plans/gemini-plans-pricing.yml, 2026-09-20); another model needs its own price in SEARCHMUX_PRICES. Charged by usageMetadata: input promptTokenCount + toolUsePromptTokenCount (url_context\'s pages), output candidatesTokenCount + thoughtsTokenCount. Free tier: the per-day limit of the free plan',
  },
  llm: free(
    "https://platform.openai.com/docs/api-reference/chat/create",
    "the operator's own model: priced by the tokens its answers report, at SEARCHMUX_LLM_PRICE_PER_MTOK when set (answers and extraction alike)",
  ),
  workspace_llm: free(
    "https://platform.openai.com/docs/guides/structured-outputs",
    "a workspace's own model: priced by tokens at the price stored with its key",
  ),

  // Paper search: keyless or free keys.
  openalex: free("https://docs.openalex.org/how-to-use-the-api/rate-limits-and-authentication", "no charge"),
  pubmed: free("https://www.ncbi.nlm.nih.gov/books/NBK25497/", "no charge"),
  semantic_scholar: free("https://api.semanticscholar.org/api-docs/graph", "no charge"),
} satisfies Record<string, Entry>;

export type PriceKey = keyof typeof ENTRIES;

/** The account a key belongs to: `exa/answer` → `exa`. */
export const accountOf = (key: string): string => key.split("/")[0] as string;

/** Every entry as listed, a tool's entry with its account's free tier. */
export const PRICE_TABLE: ReadonlyMap<string, ListedPrice> = new Map(
  Object.entries(ENTRIES as Record<string, Entry>).map(([key, entry]) => {
    const account = (ENTRIES as Record<string, Entry>)[accountOf(key)];
    return [key, { ...entry, key, as_of: CHECKED, free_tier: account?.free_tier ?? null }];
  }),
);

/** The table's entry for a registration; a key not in the table is a typo, caught at load. */
export function listedPrice(key: PriceKey): ListedPrice {
  const listed = PRICE_TABLE.get(key);
  if (!listed) throw new Error(`no price table entry ${key}`);
  return listed;
}
