/**
 * The tool table: one entry per tool, the one source of every transport. MCP registers the entries
 * (lib/mcp/tools.ts), one dynamic REST route serves each at its path (lib/api/tool-route.ts), the OpenAPI
 * document describes them with their schemas (lib/api/openapi.ts), the dashboard playground offers them
 * (lib/dashboard/playground-run.ts) and the CLI builds a command from each (scripts/cli/tool-commands.ts).
 * Adding a tool: its verb in lib/services and one entry here (lib/README.md).
 */
import { z } from "zod";
import { runsAsJob } from "@/lib/engine/crawl/input";
import { DEFAULT_TIMEOUT_MS } from "@/lib/engine/search/input";
import { NO_CALLS } from "@/lib/pipeline/estimate";
import { answer, answerToolInput } from "@/lib/services/answer/answer";
import { estimateAnswer } from "@/lib/services/answer/estimate-answer";
import { budgetStatus } from "@/lib/services/budgets/budget-status";
import { awaitCrawlJob } from "@/lib/services/crawl/await-crawl-job";
import { crawlSite, crawlToolInput } from "@/lib/services/crawl/crawl-site";
import { estimateCrawl } from "@/lib/services/crawl/estimate-crawl";
import { cancelCrawlJob, getCrawlJob, listCrawlJobs } from "@/lib/services/crawl/get-crawl-job";
import { startCrawlJob } from "@/lib/services/crawl/start-crawl-job";
import { estimateFetch } from "@/lib/services/fetch/estimate-fetch";
import { fetchPage, fetchToolInput } from "@/lib/services/fetch/fetch-page";
import { estimatePaperSearch } from "@/lib/services/papers/estimate-paper-search";
import { paperSearch, paperSearchToolInput } from "@/lib/services/papers/paper-search";
import { awaitResearch } from "@/lib/services/research/await-research";
import { cancelResearch } from "@/lib/services/research/cancel-research";
import { estimateResearch } from "@/lib/services/research/estimate-research";
import { getResearch } from "@/lib/services/research/get-research";
import { researchInput } from "@/lib/services/research/input";
import { listResearch } from "@/lib/services/research/list-research";
import { startResearch } from "@/lib/services/research/start-research";
import { estimateWebSearch } from "@/lib/services/search/estimate-web-search";
import { webSearch, webSearchInput } from "@/lib/services/search/web-search";
import {
  formatAnswer,
  formatBudgetStatus,
  formatCrawl,
  formatFetch,
  formatPapers,
  formatResearch,
  formatSearch,
} from "@/lib/tools/format";
import {
  answerResponse,
  budgetStatusResponse,
  crawlResponse,
  fetchResponse,
  paperSearchResponse,
  researchJobResponse,
  searchResponse,
  toAnswerResponse,
  toCrawlResponse,
  toFetchResponse,
  toPaperSearchResponse,
  toSearchResponse,
} from "@/lib/tools/responses";
import { defineTool, type Tool, traced } from "./tool";

/** In the order MCP lists them. */
const TOOL_LIST = [
  defineTool({
    name: "web_search",
    title: "Web search",
    scope: "search",
    description: [
      "Search the web through several search engines at once (whichever this workspace has: Brave, Tavily, Exa,",
      "DuckDuckGo, Wikipedia, …); results are fused, deduplicated and ranked. Use it for current facts, news and",
      "finding sources; then call `fetch` to read a result in full. The query understands site:, -site:, filetype:,",
      'intitle:, "exact phrase", before:YYYY-MM-DD and after:YYYY-MM-DD. Returns numbered results with title, URL',
      "and snippet. Usually 1–5 s (timeout_ms caps it). Each provider call counts against the workspace budgets;",
      "repeated queries are served from cache (no_cache: true forces a fresh search). `providers` restricts the",
      "search to given provider ids; mode 'budget' asks the cheapest providers first; mode 'auto' (the default of new",
      "workspaces) asks the free providers and only the paid ones this workspace's searches show add results, and",
      "lists those it left out in providers_skipped.",
      "Research depth: `lens` keeps results to a named domain set (docs, academic, news, forums, code, or the",
      "workspace's own). `grounded_snippets: true` reads the top `grounded_results` pages (default 10) and has a",
      "model write each snippet from what the page actually says (snippet_source 'grounded'; 'fallback' when the",
      "page was unusable) — slower (often 5–30 s) and one model call per page. `include_content: true` returns",
      "the Markdown of the top `content_results` pages (default 3, `max_chars` each) in the same call, within",
      "timeout_ms (raise it to 20000–30000); a page that fails has `content_error` instead.",
    ].join(" "),
    inputSchema: webSearchInput,
    outputSchema: searchResponse,
    rest: {
      method: "post",
      path: "/api/v1/search",
      summary: "Fused web search over the workspace's providers",
      operationId: "webSearch",
    },
    providers: "search",
    openWorld: true,
    // Grounded snippets, page contents and long deadlines can take tens of seconds; a plain search cannot.
    slow: (args) =>
      args.grounded_snippets === true ||
      args.include_content === true ||
      Number(args.timeout_ms ?? DEFAULT_TIMEOUT_MS) > DEFAULT_TIMEOUT_MS,
    run: async (ctx, input, call) => traced(toSearchResponse, await webSearch({ ctx, input, ...call })),
    estimate: (ctx, input) => estimateWebSearch({ ctx, input }),
    format: formatSearch,
  }),
  defineTool({
    name: "fetch",
    title: "Fetch a page",
    scope: "fetch",
    description: [
      "Read one web page, PDF, Word or PowerPoint document as clean Markdown (or text / html): the main content",
      "without navigation or ads; PDF pages are marked <!-- page N -->, slides are '## Slide N' sections.",
      "Use it to read a web_search result in full or any URL the user gives. GitHub, YouTube, Reddit and arXiv",
      "links are handled natively; pages that block plain fetching (bot challenges, JavaScript-only pages) fall",
      "back to the workspace's scraping providers, which may cost budget. Typically 1–10 s, at most timeout_ms",
      "(default 30 s). Long documents come in pages of max_chars (25,000 over MCP, 50,000 over REST): the result gives",
      "total_chars and next_offset; call fetch again with the same url and offset=next_offset to read on (served",
      "from cache, no cost). `urls` (up to 20, instead of url) fetches many pages in parallel in one call, one",
      "result or error per URL in order. Private and internal network addresses are refused.",
    ].join(" "),
    inputSchema: fetchToolInput,
    outputSchema: fetchResponse,
    rest: {
      method: "post",
      path: "/api/v1/fetch",
      summary: "A page as Markdown, text or HTML (SSRF-safe fetcher, then fetch providers)",
      operationId: "fetchPage",
    },
    providers: "fetch",
    openWorld: true,
    slow: true,
    run: async (ctx, input, call) => traced(toFetchResponse, await fetchPage({ ctx, input, ...call })),
    estimate: (ctx, input) => estimateFetch({ ctx, input }),
    format: formatFetch,
  }),
  defineTool({
    name: "crawl",
    title: "Crawl a site",
    scope: "fetch",
    description: [
      "Read or map a web site from a start URL: follows the same site's links (and its sitemap) breadth-first,",
      "up to max_depth link hops (default 2) and max_pages pages, obeying robots.txt. mode 'pages' (default, up to",
      "10 pages, at most 50) returns each page as Markdown cut to max_chars (default 8,000; the whole result holds",
      "at most 100,000 characters); mode 'map' (default 100 pages, at most 500) returns only the URLs with titles,",
      "to see what a site has before fetching the pages you need. include_paths / exclude_paths (globs such as",
      "'/docs/*') narrow it. Other sites' links, subdomains included, are not followed (www. counts as the same",
      "site). Pages that robots.txt disallows are listed as skipped, failed pages as errors, and `stopped` says why",
      "it ended (complete, depth, page_limit, char_limit, deadline). Uses the free direct fetcher only (pages that",
      "need a scraping provider come back as errors; `fetch` them instead). Typically 5–60 s, at most timeout_ms",
      "(default 60 s), returning what it has by then. Private and internal network addresses are refused.",
      "Larger crawls (max_pages above those caps, or async: true) run as a background job: call it as a task",
      "and poll, or the call waits for the job.",
    ].join(" "),
    inputSchema: crawlToolInput,
    outputSchema: crawlResponse,
    rest: {
      method: "post",
      path: "/api/v1/crawl",
      summary: "A site's pages breadth-first from a start URL (same site, robots.txt, sitemap), or its map",
      operationId: "crawlSite",
    },
    providers: null,
    openWorld: true,
    slow: true,
    background: {
      start: (ctx, input) => startCrawlJob({ ctx, input }),
      when: runsAsJob,
      read: (ctx, input) => getCrawlJob({ ctx, input }),
      cancel: (ctx, input) => cancelCrawlJob({ ctx, input }),
      list: (ctx, limit) => listCrawlJobs({ ctx, limit }),
    },
    run: async (ctx, input, call) => {
      if (!runsAsJob(input)) return traced(toCrawlResponse, await crawlSite({ ctx, input, ...call }));
      const job = await startCrawlJob({ ctx, input });
      return { response: await awaitCrawlJob({ ctx, input: job, signal: call.signal }), spans: [] };
    },
    estimate: (ctx, input) => estimateCrawl({ ctx, input }),
    format: formatCrawl,
  }),
  defineTool({
    name: "answer",
    title: "Answer a question",
    scope: "answer",
    description: [
      "Ask a question and get answers from several AI answer engines side by side (whichever this workspace has:",
      "Perplexity, Tavily, Exa, Brave, Kagi, an operator model, …), each with numbered citations, plus the sources",
      "several answers share. Use it for questions that need a synthesised, cited answer; prefer claims the answers",
      "agree on. Use web_search instead when you need sources rather than an answer. Slow: typically 5–60 s, at",
      "most timeout_ms (default 120 s); the most expensive tool, as every answer provider call is charged.",
    ].join(" "),
    inputSchema: answerToolInput,
    outputSchema: answerResponse,
    rest: {
      method: "post",
      path: "/api/v1/answer",
      summary: "Answers of every configured answer provider side by side, with citations",
      operationId: "answer",
    },
    providers: "answer",
    openWorld: true,
    slow: true,
    run: async (ctx, input, call) => traced(toAnswerResponse, await answer({ ctx, input, ...call })),
    estimate: (ctx, input) => estimateAnswer({ ctx, input }),
    format: formatAnswer,
  }),
  defineTool({
    name: "paper_search",
    title: "Search scholarly papers",
    scope: "papers",
    description: [
      "Search scholarly literature in arXiv, PubMed, Semantic Scholar and OpenAlex at once; papers are merged",
      "across sources (by DOI, arXiv id, PMID) with authors, year, venue, abstract, citation count and",
      "open-access PDF links. Use it for research papers and scientific evidence; use web_search for general web",
      "content. Filters: year_from, year_to, open_access; sort by relevance or date. Usually 2–15 s; the sources",
      "are free.",
    ].join(" "),
    inputSchema: paperSearchToolInput,
    outputSchema: paperSearchResponse,
    rest: {
      method: "post",
      path: "/api/v1/papers",
      summary: "arXiv, PubMed, Semantic Scholar and OpenAlex, merged",
      operationId: "paperSearch",
    },
    providers: "papers",
    openWorld: true,
    run: async (ctx, input, call) =>
      traced(toPaperSearchResponse, await paperSearch({ ctx, input, ...call })),
    estimate: (ctx, input) => estimatePaperSearch({ ctx, input }),
    format: formatPapers,
  }),
  defineTool({
    name: "research",
    title: "Research a question",
    scope: "search",
    description: [
      "Research a question in the background and get a cited report: plans several searches (the workspace's",
      "model when configured, reformulations otherwise), runs them over the workspace's search providers, reads",
      "the best pages and writes a Markdown report where every [n] cites a page that was read, with a sources",
      "list naming the providers and ranks that found each page. Takes minutes: with task support, call it as a",
      "task and poll; otherwise the call waits, sending progress. Every search, fetch and model call inside is",
      "charged against the workspace's budgets; max_cost_usd caps the job. When budgets run out it stops and",
      "reports what it found, marked partial with the reason. Needs the search and fetch scopes.",
    ].join(" "),
    inputSchema: researchInput,
    outputSchema: researchJobResponse,
    rest: {
      method: "post",
      path: "/api/v1/research",
      summary: "Queues a research job (202); GET /api/v1/research/{id} for its status and cited report",
      operationId: "startResearch",
    },
    providers: null,
    openWorld: true,
    slow: true,
    background: {
      start: (ctx, input) => startResearch({ ctx, input }),
      read: (ctx, input) => getResearch({ ctx, input }),
      cancel: (ctx, input) => cancelResearch({ ctx, input }),
      list: async (ctx, limit) => (await listResearch({ ctx, input: { limit } })).jobs,
    },
    playground: false,
    run: async (ctx, input, call) => {
      const job = await startResearch({ ctx, input });
      return { response: await awaitResearch({ ctx, input: job, signal: call.signal }), spans: [] };
    },
    estimate: (ctx, input) => estimateResearch({ ctx, input }),
    format: formatResearch,
  }),
  defineTool({
    name: "budget_status",
    title: "Budget status",
    scope: null,
    description: [
      "Show what this workspace may still spend: every budget (per provider or overall, requests or USD per day,",
      "month or lifetime) with what is left and when it resets, the operator's quotas on calls with its keys,",
      "usage per provider today and this month, free-tier allowances and, for tokens with the admin scope, recent",
      "budget alerts. Use it when a tool reports an exhausted budget, or before many expensive calls such as",
      "answer. Instant and free; no external calls.",
    ].join(" "),
    inputSchema: z.strictObject({}),
    outputSchema: budgetStatusResponse,
    rest: {
      method: "get",
      path: "/api/v1/usage",
      summary:
        "What each budget leaves, per-provider usage and free tiers (budget ids, soft limits and alerts with the admin scope)",
      operationId: "budgetStatus",
    },
    providers: null,
    openWorld: false,
    playground: false,
    run: async (ctx) => ({ response: await budgetStatus({ ctx }), spans: [] }),
    // Reads the workspace's own rows: no provider, no cost.
    estimate: async () => NO_CALLS,
    format: formatBudgetStatus,
  }),
] as const;

export type ToolName = (typeof TOOL_LIST)[number]["name"];
export type ToolNamed<Name extends ToolName> = Extract<(typeof TOOL_LIST)[number], { name: Name }>;

/** The entries by name, for the transports that pick one (`tools.web_search`). */
export const tools = Object.fromEntries(TOOL_LIST.map((tool) => [tool.name, tool])) as {
  [Name in ToolName]: ToolNamed<Name>;
};

/** Every entry, for the transports that go through them all. */
export const TOOLS: readonly Tool<ToolName>[] = TOOL_LIST;

/** The tools whose calls leave a trace: those that reach providers or the web. The traces filter offers them. */
export const TRACED_TOOL_NAMES = TOOL_LIST.filter((tool) => tool.openWorld).map((tool) => tool.name);
