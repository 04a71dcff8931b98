/**
 * robots.txt rules for the user agent "Searchmux", parsed by robots-parser, as RFC 9309 reads a fetch:
 * a 2xx body is the rules, a 4xx means no rules (everything allowed), and a 5xx or an unreachable file
 * means the site cannot say, so nothing is fetched.
 *
 * Matching a rule with a wildcard costs its length times the URL path's (robots-parser follows Google's
 * algorithm), and every URL is checked against every rule: a hostile file of thousands of long wildcard rules
 * held the event loop for seconds per URL. A file whose wildcard rules are longer in all than
 * MAX_WILDCARD_RULE_CHARS (far above what real sites publish) is not evaluated: nothing is fetched, and the
 * refusal says why, as for a file that cannot be read.
 */
import robotsParser from "robots-parser";
import type { TextOutcome } from "./fetch-text";

const CRAWLER_AGENT = "Searchmux";
/** Characters of Allow/Disallow patterns with a `*` evaluated, summed over the file. */
export const MAX_WILDCARD_RULE_CHARS = 8 * 1024;

export interface RobotsRules {
  /** Why `url` may not be fetched, or undefined when it may. */
  refusal(url: URL): string | undefined;
  /** Sitemap URLs the file declares. */
  sitemaps: readonly string[];
}

const ALLOW_ALL: RobotsRules = { refusal: () => undefined, sitemaps: [] };

export function robotsRules(robotsUrl: URL, fetched: TextOutcome): RobotsRules {
  if (!fetched.ok) {
    const why = `robots.txt could not be read (${fetched.failure.reason})`;
    return { refusal: () => why, sitemaps: [] };
  }
  if (fetched.status >= 500) {
    const why = `robots.txt answered HTTP ${fetched.status}`;
    return { refusal: () => why, sitemaps: [] };
  }
  if (fetched.status >= 400) return ALLOW_ALL;
  if (wildcardRuleChars(fetched.text) > MAX_WILDCARD_RULE_CHARS) {
    const why = `robots.txt has more wildcard rules than this crawler evaluates (over ${MAX_WILDCARD_RULE_CHARS} characters)`;
    return { refusal: () => why, sitemaps: [] };
  }
  const robots = robotsParser(robotsUrl.toString(), fetched.text);
  return {
    refusal: (url) =>
      robots.isDisallowed(url.toString(), CRAWLER_AGENT) === true ? "disallowed by robots.txt" : undefined,
    sitemaps: robots.getSitemaps(),
  };
}

/** The summed length of the file's Allow and Disallow patterns that contain a wildcard. */
function wildcardRuleChars(text: string): number {
  let chars = 0;
  for (const line of text.split("\n")) {
    const rule = /^\s*(?:dis)?allow\s*:\s*(\S*)/i.exec(line)?.[1];
    if (rule?.includes("*")) chars += rule.length;
  }
  return chars;
}
