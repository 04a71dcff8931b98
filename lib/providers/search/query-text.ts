/**
 * Rebuilds query text for providers that understand search operators inside the query itself
 * (Google-backed Serper/SerpApi, Brave, DuckDuckGo, Kagi, ...). Operators a provider does not
 * understand are dropped (the engine post-filters), except `intitle:` words, which stay as plain
 * terms because they still describe what the user is looking for.
 */
import type { ProviderCall, ProviderCapabilities } from "@/lib/engine/search/types";

export type QueryOperator = ProviderCapabilities["queryOperators"][number];

export function buildQueryText(
  call: Pick<ProviderCall, "query" | "options">,
  supported: readonly QueryOperator[],
): string {
  const { query, options } = call;
  const has = (operator: QueryOperator) => supported.includes(operator);
  const parts = [has("phrase") ? quotePhrases(query.terms, query.phrases) : query.terms];

  if (has("intitle")) parts.push(...query.intitle.map((word) => `intitle:${word}`));
  else parts.push(...query.intitle);
  // Several site: operators are ANDed by search engines; OR keeps "any of these domains".
  if (has("site") && options.includeDomains.length > 0) {
    parts.push(options.includeDomains.map((domain) => `site:${domain}`).join(" OR "));
  }
  if (has("-site")) parts.push(...options.excludeDomains.map((domain) => `-site:${domain}`));
  if (has("filetype") && query.filetype) parts.push(`filetype:${query.filetype}`);
  if (has("after") && query.after) parts.push(`after:${query.after}`);
  if (has("before") && query.before) parts.push(`before:${query.before}`);

  return parts
    .map((part) => part.trim())
    .filter(Boolean)
    .join(" ");
}

/** `terms` keeps phrases without quotes; quote them in place, or append them if they were not found. */
function quotePhrases(terms: string, phrases: readonly string[]): string {
  let text = terms;
  for (const phrase of phrases) {
    const quoted = `"${phrase}"`;
    const at = text.indexOf(phrase);
    text = at >= 0 ? text.slice(0, at) + quoted + text.slice(at + phrase.length) : `${text} ${quoted}`;
  }
  return text;
}
