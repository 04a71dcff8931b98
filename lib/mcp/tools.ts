/**
 * MCP: the five tools. Each calls the same service verb as REST and the dashboard, with the verb's own
 * strict input schema; only the tools a token's scopes allow are registered (and so listed).
 */
import { z } from "zod";
import {
  answerResponse,
  budgetStatusResponse,
  fetchResponse,
  paperSearchResponse,
  searchResponse,
  toAnswerResponse,
  toFetchResponse,
  toPaperSearchResponse,
  toSearchResponse,
} from "../api/responses";
import { answer, answerToolInput } from "../services/answer/answer";
import { budgetStatus } from "../services/budgets/budget-status";
import type { Scope } from "../services/context";
import { fetchPage, fetchToolInput } from "../services/fetch/fetch-page";
import { paperSearch, paperSearchToolInput } from "../services/papers/paper-search";
import { webSearch, webSearchInput } from "../services/search/web-search";
import { defineTool, type McpTool } from "./define-tool";
import { formatAnswer, formatBudgetStatus, formatFetch, formatPapers, formatSearch } from "./format";

export const webSearchTool = defineTool({
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
    "search to given provider ids; mode 'budget' asks the cheapest providers first.",
    "Research depth: `lens` keeps results to a named domain set (docs, academic, news, forums, code, or the",
    "workspace's own). `grounded_snippets: true` reads the top `grounded_results` pages (default 10) and has a",
    "model write each snippet from what the page actually says (snippet_source 'grounded'; 'fallback' when the",
    "page was unusable) — slower (often 5–30 s) and one model call per page. `include_content: true` returns",
    "the Markdown of the top `content_results` pages (default 3, `max_chars` each) in the same call, within",
    "timeout_ms (raise it to 20000–30000); a page that fails has `content_error` instead.",
  ].join(" "),
  inputSchema: webSearchInput,
  outputSchema: searchResponse,
  openWorld: true,
  // Grounded snippets and page contents can take tens of seconds.
  slow: true,
  run: async (ctx, input, call) => toSearchResponse(await webSearch({ ctx, input, ...call })),
  format: formatSearch,
});

export const fetchTool = defineTool({
  name: "fetch",
  title: "Fetch a page",
  scope: "fetch",
  description: [
    "Read one web page, PDF, Word or PowerPoint document as clean Markdown (or text / html): the main content",
    "without navigation or ads; PDF pages are marked <!-- page N -->, slides are '## Slide N' sections.",
    "Use it to read a web_search result in full or any URL the user gives. GitHub, YouTube, Reddit and arXiv",
    "links are handled natively; pages that block plain fetching (bot challenges, JavaScript-only pages) fall",
    "back to the workspace's scraping providers, which may cost budget. Typically 1–10 s, at most timeout_ms",
    "(default 30 s). Content longer than max_chars (default 50,000) is truncated and the full length reported.",
    "Private and internal network addresses are refused.",
  ].join(" "),
  inputSchema: fetchToolInput,
  outputSchema: fetchResponse,
  openWorld: true,
  slow: true,
  run: async (ctx, input, call) => toFetchResponse(await fetchPage({ ctx, input, ...call })),
  format: formatFetch,
});

export const answerTool = defineTool({
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
  openWorld: true,
  slow: true,
  run: async (ctx, input, call) => toAnswerResponse(await answer({ ctx, input, ...call })),
  format: formatAnswer,
});

export const paperSearchTool = defineTool({
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
  openWorld: true,
  run: async (ctx, input, call) => toPaperSearchResponse(await paperSearch({ ctx, input, ...call })),
  format: formatPapers,
});

export const budgetStatusTool = defineTool({
  name: "budget_status",
  title: "Budget status",
  scope: null,
  description: [
    "Show what this workspace may still spend: every budget (per provider or overall, requests or USD per day,",
    "month or lifetime) with what is left and when it resets, the operator's quotas on calls with its keys,",
    "usage per provider today and this month,",
    "free-tier allowances and recent budget alerts. Use it when a tool reports an exhausted budget, or before",
    "many expensive calls such as answer. Instant and free; no external calls.",
  ].join(" "),
  inputSchema: z.strictObject({}),
  outputSchema: budgetStatusResponse,
  openWorld: false,
  run: (ctx) => budgetStatus({ ctx }),
  format: formatBudgetStatus,
});

export const TOOLS: readonly McpTool[] = [
  webSearchTool,
  fetchTool,
  answerTool,
  paperSearchTool,
  budgetStatusTool,
];

/** The tools a token may see and call: those of its scopes, and budget_status for every token. */
export function toolsForScopes(scopes: readonly Scope[]): McpTool[] {
  return TOOLS.filter((tool) => tool.scope === null || scopes.includes(tool.scope));
}
