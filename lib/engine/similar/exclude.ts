/** What a list of similar pages must never hold: the page itself, and pages of the excluded domains. */
import { hostMatchesAny } from "@/lib/engine/search/domains";
import { parseResultUrl } from "@/lib/engine/search/url";

/**
 * `results` without the pages whose normalised URL is one of `pages` (the URL asked about, where it
 * redirected to) and without pages on `excludeDomains` (subdomains included).
 */
export function withoutPage<R extends { url: string }>(
  results: readonly R[],
  pages: readonly string[],
  excludeDomains: readonly string[],
): R[] {
  const keys = new Set(pages.flatMap((url) => parseResultUrl(url)?.key ?? []));
  return results.filter((result) => {
    const parsed = parseResultUrl(result.url);
    return parsed !== null && !keys.has(parsed.key) && !hostMatchesAny(parsed.host, excludeDomains);
  });
}
