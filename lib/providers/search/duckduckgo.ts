/**
 * DuckDuckGo HTML (no-JS) results page. Unofficial: there is no DuckDuckGo web-search API.
 * Reference: SearXNG's engine (https://github.com/searxng/searxng/blob/master/searx/engines/duckduckgo.py)
 * Wire: POST {base}/html/, form {q (≤ 499 chars, SearXNG's duckduckgo.py: "DDG does not accept queries with more
 *   than 499 chars"; fitted, told in `adjustments`; operators site/-site/filetype/intitle/"phrase"), b: "",
 *   kl: one of DuckDuckGo's 62 region codes (<country>-<language>: us-en, de-de, uk-en, il-en, xa-ar, … as
 *   SearXNG's engine traits list them, searx/data/engine_traits.json; another region is not sent, told in
 *   `adjustments`), df: d|w|m|y}
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
import { type Fitted, notesOf, type RawResult, supports, toProviderResponse } from "./adapter-kit";
import { primaryLanguage } from "./locale";
import { fitQueryText } from "./query-text";

const QUERY_LIMIT = { provider: "DuckDuckGo", chars: 499 };
const DATE_FILTER: Readonly<Record<TimeRange, string>> = { day: "d", week: "w", month: "m", year: "y" };
// DuckDuckGo's regions (`kl`), as SearXNG's engine traits list them (searx/data/engine_traits.json,
// duckduckgo.regions): <its country code>-<language>, where a country may have several languages.
const DUCKDUCKGO_REGIONS = (
  "ar-es at-de au-en be-fr be-nl bg-bg br-pt ca-en ca-fr ch-de ch-fr cl-es cn-zh co-es cz-cs de-de dk-da ee-et " +
  "es-ca es-es fi-fi fr-fr gr-el hk-tzh hr-hr hu-hu id-en ie-en il-en in-en is-is it-it jp-jp kr-kr lt-lt lv-lv " +
  "mx-es my-en nl-nl no-no nz-en pe-es ph-en pk-en pl-pl pt-pt ro-ro ru-ru se-sv sg-en sk-sk sl-sl th-en tr-tr " +
  "tw-tzh ua-uk uk-en us-en us-es vn-en xa-ar za-en"
).split(" ");
// Where DuckDuckGo's country code is not the ISO one: Great Britain, Saudi Arabia ("Arabia"), Slovenia.
const DUCKDUCKGO_COUNTRY: Readonly<Record<string, string>> = { gb: "uk", sa: "xa", si: "sl" };
// Headers of a plain browser form submission; DuckDuckGo's bot check rejects obviously scripted clients.
const BROWSER_HEADERS = {
  accept: "text/html,application/xhtml+xml",
  "accept-language": "en-US,en;q=0.7",
  "user-agent": "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
  "sec-fetch-mode": "navigate",
};

/**
 * The region as DuckDuckGo's `kl`: that country's region in the call's language, else in the country's main
 * language, else its first; undefined for a country DuckDuckGo does not list.
 */
export function duckDuckGoRegion(region: string | undefined, language?: string): string | undefined {
  if (region === undefined) return undefined;
  const code = region.toLowerCase();
  const country = DUCKDUCKGO_COUNTRY[code] ?? code;
  const regions = DUCKDUCKGO_REGIONS.filter((kl) => kl.startsWith(`${country}-`));
  const inLanguage = (wanted: string | undefined) => regions.find((kl) => kl === `${country}-${wanted}`);
  return inLanguage(language) ?? inLanguage(primaryLanguage(code)) ?? regions[0];
}

function fittedRegion(region: string | undefined, language: string | undefined): Fitted<string | undefined> {
  const value = duckDuckGoRegion(region, language);
  if (region === undefined || value !== undefined) return { value };
  return { value, note: `region "${region}" is not one of DuckDuckGo's regions: not sent` };
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
    const query = fitQueryText(call, duckduckgo.capabilities.queryOperators, QUERY_LIMIT);
    const form: Record<string, string> = { q: query.value, b: "" };
    const region = fittedRegion(options.region, options.language);
    if (region.value) form.kl = region.value;
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
    return toProviderResponse(parseResultsPage(response.body), call, response, notesOf(query, region));
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
