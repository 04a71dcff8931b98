/**
 * DuckDuckGo HTML (no-JS) results page. Unofficial: there is no DuckDuckGo web-search API.
 * Reference: SearXNG's engine (https://github.com/searxng/searxng/blob/master/searx/engines/duckduckgo.py)
 * Wire: POST {base}/html/, form {q (≤ 499 chars, operators site/-site/filetype/intitle/"phrase"), b: "",
 *   kl: <region>-<lang> (DuckDuckGo's region codes, e.g. us-en, de-de, uk-en), df: d|w|m|y}
 *   -> HTML: div.result > h2 > a.result__a[href="//duckduckgo.com/l/?uddg=<encoded target>"], a.result__snippet.
 * Ads are div.result--ad (their links go through duckduckgo.com/y.js) and are skipped.
 * No news search: DuckDuckGo's news results come from duckduckgo.com/news.js behind a `vqd` token taken from
 * its JavaScript pages, an undocumented flow whose misuse blocks the address for an hour (SearXNG's notes).
 * No language parameter either: `kl` is a region with its language, set from `region`.
 * Throttling shows up as HTTP 202 or as a 200 "anomaly" page with #challenge-form; both throw "blocked"
 * instead of pretending nothing was found.
 */
import { parse } from "node-html-parser";
import type { SearchProvider, TimeRange } from "@/lib/engine/search/types";
import { ProviderError } from "@/lib/engine/shared/errors";
import { buildUrl, request } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { type RawResult, supports, toProviderResponse } from "./adapter-kit";
import { primaryLanguage } from "./locale";
import { buildQueryText } from "./query-text";

const MAX_QUERY_LENGTH = 499;
const DATE_FILTER: Readonly<Record<TimeRange, string>> = { day: "d", week: "w", month: "m", year: "y" };
// DuckDuckGo's region codes mostly read <country>-<language>, with these exceptions.
const REGION_EXCEPTIONS: Readonly<Record<string, string>> = {
  gb: "uk-en",
  uk: "uk-en",
  id: "id-en",
  jp: "jp-jp",
  kr: "kr-kr",
  th: "th-en",
  vn: "vn-en",
  hk: "hk-tzh",
  tw: "tw-tzh",
};
// Headers of a plain browser form submission; DuckDuckGo's bot check rejects obviously scripted clients.
const BROWSER_HEADERS = {
  accept: "text/html,application/xhtml+xml",
  "accept-language": "en-US,en;q=0.7",
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
  "sec-fetch-mode": "navigate",
};

export function duckDuckGoRegion(region: string | undefined): string | undefined {
  if (region === undefined) return undefined;
  const code = region.toLowerCase();
  const exception = REGION_EXCEPTIONS[code];
  if (exception) return exception;
  const language = primaryLanguage(code);
  return language ? `${code}-${language}` : undefined;
}

export const duckduckgo: SearchProvider = {
  id: "duckduckgo",
  displayName: "DuckDuckGo",
  keyEnv: [],
  baseUrlEnv: "DUCKDUCKGO_BASE_URL",
  defaultBaseUrl: "https://html.duckduckgo.com",
  docsUrl: "https://duckduckgo.com/duckduckgo-help-pages/results/syntax/",
  apiVersion: "html (unofficial)",
  capabilities: supports({
    filters: ["timeRange", "region"],
    queryOperators: ["site", "-site", "filetype", "intitle", "phrase"],
  }),
  price: listedPrice("duckduckgo"),
  defaultTimeoutMs: 10_000,

  async search(call) {
    const { options } = call;
    const form: Record<string, string> = {
      q: buildQueryText(call, duckduckgo.capabilities.queryOperators).slice(0, MAX_QUERY_LENGTH),
      b: "",
    };
    const region = duckDuckGoRegion(options.region);
    if (region) form.kl = region;
    if (options.timeRange) form.df = DATE_FILTER[options.timeRange];

    const base = buildUrl(call.baseUrl, "/");
    const response = await request(buildUrl(call.baseUrl, "/html/"), {
      method: "POST",
      headers: { ...BROWSER_HEADERS, referer: base, origin: base.replace(/\/$/, "") },
      form,
      signal: call.signal,
    });
    if (response.status === 202) {
      throw new ProviderError("blocked", "DuckDuckGo answered HTTP 202 (rate limit / bot challenge)", 202);
    }
    return toProviderResponse(parseResultsPage(response.body), call, response);
  },
};

/** Organic results of a DuckDuckGo HTML page, in page order; throws "blocked" on a bot-challenge page. */
export function parseResultsPage(html: string): RawResult[] {
  const root = parse(html);
  if (root.querySelector("#challenge-form") || root.querySelector(".anomaly-modal__modal")) {
    throw new ProviderError("blocked", "DuckDuckGo served a bot challenge (anomaly page)", 200);
  }
  const results: RawResult[] = [];
  for (const block of root.querySelectorAll(".result")) {
    if (block.classList.contains("result--ad")) continue;
    const link = block.querySelector("a.result__a");
    const href = link?.getAttribute("href");
    if (!link || !href || href.includes("duckduckgo.com/y.js")) continue;
    results.push({
      title: link.innerHTML,
      url: decodeResultLink(href),
      snippet: block.querySelector(".result__snippet")?.innerHTML,
    });
  }
  return results;
}

/** `//duckduckgo.com/l/?uddg=<encoded>&rut=…` -> the target URL; direct links pass through. */
export function decodeResultLink(href: string): string {
  const absolute = href.startsWith("//") ? `https:${href}` : href;
  try {
    const url = new URL(absolute, "https://duckduckgo.com");
    const target = url.pathname === "/l/" ? url.searchParams.get("uddg") : null;
    return target ?? url.toString();
  } catch {
    return href;
  }
}
