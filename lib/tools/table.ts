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
import { estimateExtract } from "@/lib/services/extract/estimate-extract";
import { extract } from "@/lib/services/extract/extract";
import { extractToolInput } from "@/lib/services/extract/input";
import { estimateFetch } from "@/lib/services/fetch/estimate-fetch";
import { fetchPage, fetchToolInput } from "@/lib/services/fetch/fetch-page";
import { estimateImageSearch } from "@/lib/services/images/estimate-image-search";
import { imageSearch, imageSearchToolInput } from "@/lib/services/images/image-search";
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
import { estimateSimilar } from "@/lib/services/similar/estimate-similar";
import { similar, similarInput } from "@/lib/services/similar/similar";
import {
  formatAnswer,
  formatBudgetStatus,
  formatCrawl,
  formatExtract,
  formatFetch,
  formatImages,
  formatPapers,
  formatResearch,
  formatSearch,
  formatSimilar,
} from "@/lib/tools/format";
import {
  answerResponse,
  budgetStatusResponse,
  crawlResponse,
  extractResponse,
  fetchResponse,
  imageSearchResponse,
  paperSearchResponse,
  researchJobResponse,
  searchResponse,
  similarResponse,
  toAnswerResponse,
  toCrawlResponse,
  toExtractResponse,
  toFetchResponse,
  toImageSearchResponse,
  toPaperSearchResponse,
  toSearchResponse,
  toSimilarResponse,
} from "@/lib/tools/responses";
import { defineTool, type Tool, traced } from "./tool";

/** In the order MCP lists them. */
const TOOL_LIST = [
  defineTool({
    name: "web_search",
    title: "Web search",
    scope: "search",
    description: [
      "Web search over several engines at once, fused and ranked: facts, news, sources; read results with fetch.",
      "1–5 s, charged per provider call, repeats cached. queries: up to 5 searches; grounded_snippets and",
      "include_content read the top pages too (slower).",
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
      "Read a page, PDF or office file as Markdown (or text, html); blocked pages fall back to paid scraping",
      "providers. 1–10 s. Long documents come in pages: call again with offset=next_offset.",
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
      "Read (pages) or map (URLs, titles) one site from a start URL, obeying robots.txt; free direct fetcher only.",
      "5–60 s, what it has by timeout_ms; async or larger crawls run as a job (a task, or the call waits).",
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
    name: "extract",
    title: "Extract structured data",
    scope: "fetch",
    description: [
      "Fill a JSON Schema from each of 1–20 pages: per URL, `data` valid against `schema` or an error. A model",
      "reads each page (charged, repeats cached); 5–60 s.",
    ].join(" "),
    inputSchema: extractToolInput,
    outputSchema: extractResponse,
    rest: {
      method: "post",
      path: "/api/v1/extract",
      summary: "Structured data from pages: each page filled into a JSON Schema by a model or Firecrawl",
      operationId: "extract",
    },
    providers: "extract",
    openWorld: true,
    slow: true,
    run: async (ctx, input, call) => traced(toExtractResponse, await extract({ ctx, input, ...call })),
    estimate: (ctx, input) => estimateExtract({ ctx, input }),
    format: formatExtract,
  }),
  defineTool({
    name: "answer",
    title: "Answer a question",
    scope: "answer",
    description: [
      "Cited answers from several AI answer engines side by side, with the sources they share (sources alone:",
      "web_search). 5–60 s, the most expensive tool.",
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
      "Scholarly papers from arXiv, PubMed, Semantic Scholar and OpenAlex, merged, with abstracts and open-access",
      "PDF links. 2–15 s, free.",
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
    name: "image_search",
    title: "Search images",
    scope: "search",
    description: [
      "Images from several engines at once, fused: image, thumbnail and page URLs, size. safesearch strict by",
      "default. Charged per provider call.",
    ].join(" "),
    inputSchema: imageSearchToolInput,
    outputSchema: imageSearchResponse,
    rest: {
      method: "post",
      path: "/api/v1/image-search",
      summary: "Images fused across the workspace's image providers, safesearch honoured per provider",
      operationId: "imageSearch",
    },
    providers: "images",
    openWorld: true,
    run: async (ctx, input, call) =>
      traced(toImageSearchResponse, await imageSearch({ ctx, input, ...call })),
    estimate: (ctx, input) => estimateImageSearch({ ctx, input }),
    format: formatImages,
  }),
  defineTool({
    name: "similar",
    title: "Find similar pages",
    scope: "search",
    description: [
      "Pages like a URL (itself left out): Exa's find-similar with an Exa key, else a web search from the page's",
      "title and key terms (needs fetch too). Charged like those calls.",
    ].join(" "),
    inputSchema: similarInput,
    outputSchema: similarResponse,
    rest: {
      method: "post",
      path: "/api/v1/similar",
      summary: "Pages like a given URL (Exa's findSimilar, or a search built from the page)",
      operationId: "similarPages",
    },
    // Exa's findSimilar is one provider; the fallback runs fetch and web_search, whose providers those tools list.
    providers: null,
    openWorld: true,
    slow: true,
    run: async (ctx, input, call) => traced(toSimilarResponse, await similar({ ctx, input, ...call })),
    estimate: (ctx, input) => estimateSimilar({ ctx, input }),
    format: formatSimilar,
  }),
  defineTool({
    name: "research",
    title: "Research a question",
    scope: "search",
    description: [
      "Research a question: several searches, the best pages read, a cited Markdown report. Minutes (call it as a",
      "task where supported); each step charged, max_cost_usd caps it.",
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
      "Budgets left and when they reset, quotas, usage, free tiers: call it when a tool reports an exhausted",
      "budget. Free.",
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
