/**
 * URL normalisation for fusion: two URLs that a reader would call "the same page" map to one key.
 *
 * The key is a URL string, `https://host[:port]/path[?query]`, built by:
 * - http and https folded into `https` (the same document is often served on both);
 * - lowercase host, IDN hosts in punycode (WHATWG URL does both), trailing dot and leading `www.` dropped;
 * - user info, fragment and the scheme's default port dropped;
 * - percent-encoding made canonical (RFC 3986 §6.2.2: uppercase hex, unreserved characters decoded);
 * - trailing slash dropped except for the root path;
 * - tracking parameters dropped, remaining parameters sorted by name (stable, so repeated names keep
 *   their relative order, which can be meaningful), `%20` in the query written as `+`.
 * Anything that is not http(s) or does not parse gives null.
 */

import { compareStrings } from "./text";

/** Exact parameter names (lowercase) that only carry attribution, never content. */
const TRACKING_PARAMS = new Set([
  "gclid",
  "gclsrc",
  "dclid",
  "gbraid",
  "wbraid",
  "fbclid",
  "msclkid",
  "yclid",
  "igshid",
  "twclid",
  "ttclid",
  "li_fat_id",
  "ref",
  "ref_src",
  "ref_url",
  "referrer",
  "_hsenc",
  "_hsmi",
  "__hstc",
  "__hssc",
  "__hsfp",
  "hsctatracking",
  "mkt_tok",
  "_ga",
  "_gl",
  "oly_anon_id",
  "oly_enc_id",
  "vero_id",
  "vero_conv",
  "wickedid",
  "s_kwcid",
  "ef_id",
]);

/** Parameter name prefixes (lowercase) used by campaign tools: utm_source, mc_cid, mc_eid, pk_campaign … */
const TRACKING_PREFIXES = ["utm_", "mc_", "pk_", "mtm_", "hsa_"];

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const PERCENT_ESCAPE = /%([0-9A-Fa-f]{2})/g;

export function normalizeUrl(url: string): string | null {
  return parseResultUrl(url)?.key ?? null;
}

export interface ParsedResultUrl {
  /** normalizeUrl(url): identity for fusion. */
  key: string;
  /** Host without `www.` or port, for domain filters. */
  host: string;
  /** The URL to show: as given, minus credentials, fragment and tracking parameters (query canonical). */
  link: string;
}

/** Parses a result URL once for fusion, filters and display; null when it is not http(s). */
export function parseResultUrl(url: string): ParsedResultUrl | null {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;

  const host = stripWww(parsed.hostname.replace(/\.$/, ""));
  if (host === "") return null;
  const port = parsed.port === "" ? "" : `:${parsed.port}`;
  const query = normalizeQuery(parsed.search);
  const search = query === "" ? "" : `?${query}`;
  return {
    key: `https://${host}${port}${normalizePath(parsed.pathname)}${search}`,
    host,
    link: `${parsed.protocol}//${parsed.host}${parsed.pathname}${search}`,
  };
}

/**
 * The link to show of one page's links (its listings, best first): the first over https when any is, for
 * a page that came with both schemes is served over https; else the first.
 */
export function preferHttps(links: readonly string[]): string | undefined {
  return links.find((link) => link.startsWith("https:")) ?? links[0];
}

function stripWww(host: string): string {
  return host.startsWith("www.") ? host.slice(4) : host;
}

function normalizePath(pathname: string): string {
  const path = canonicalEscapes(pathname).replace(/\/+$/, "");
  return path === "" ? "/" : path;
}

function normalizeQuery(search: string): string {
  if (search.length <= 1) return "";
  const params: Array<{ name: string; pair: string }> = [];
  for (const part of search.slice(1).split("&")) {
    if (part === "") continue;
    const eq = part.indexOf("=");
    const name = canonicalQueryComponent(eq === -1 ? part : part.slice(0, eq));
    if (isTrackingParam(name)) continue;
    const pair = eq === -1 ? name : `${name}=${canonicalQueryComponent(part.slice(eq + 1))}`;
    params.push({ name, pair });
  }
  // Array.prototype.sort is stable (ES2019), so equal names keep their original order.
  params.sort((a, b) => compareStrings(a.name, b.name));
  return params.map((p) => p.pair).join("&");
}

function isTrackingParam(encodedName: string): boolean {
  const name = encodedName.toLowerCase();
  return TRACKING_PARAMS.has(name) || TRACKING_PREFIXES.some((prefix) => name.startsWith(prefix));
}

function canonicalQueryComponent(component: string): string {
  return canonicalEscapes(component).replace(/%20/g, "+");
}

/** Uppercase every percent-escape and decode the ones that stand for unreserved characters. */
function canonicalEscapes(text: string): string {
  if (!text.includes("%")) return text;
  return text.replace(PERCENT_ESCAPE, (_escape, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(char) ? char : `%${hex.toUpperCase()}`;
  });
}
