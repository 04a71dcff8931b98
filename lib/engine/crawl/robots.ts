/**
 * robots.txt rules for the user agent "Searchmux", parsed by robots-parser, as RFC 9309 reads a fetch:
 * a 2xx body is the rules, a 4xx means no rules (everything allowed), and a 5xx or an unreachable file
 * means the site cannot say, so nothing is fetched.
 */
import robotsParser from "robots-parser";
import type { TextOutcome } from "./fetch-text";

const CRAWLER_AGENT = "Searchmux";

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
  const robots = robotsParser(robotsUrl.toString(), fetched.text);
  return {
    refusal: (url) =>
      robots.isDisallowed(url.toString(), CRAWLER_AGENT) === true ? "disallowed by robots.txt" : undefined,
    sitemaps: robots.getSitemaps(),
  };
}
