/**
 * The outbound requests one crawl may make: every request counts, whatever it fetches (a page, each of its
 * redirect hops, robots.txt, a sitemap), so a site of redirect chains or many origins cannot turn max_pages
 * into several times as many requests. The budget is a function of max_pages (room for one redirect per page
 * on average and the robots and sitemap reads) under the operator's ceiling.
 */
import { ProviderError } from "@/lib/engine/shared/errors";

/** robots.txt of the site's origins and the sitemaps (at most 5), beyond the pages and their redirects. */
const REQUEST_OVERHEAD = 10;

/** What a crawl of `maxPages` pages may request, at most `ceiling` (SEARCHMUX_CRAWL_MAX_REQUESTS). */
export function requestLimit(maxPages: number, ceiling: number): number {
  return Math.min(ceiling, 2 * maxPages + REQUEST_OVERHEAD);
}

export class RequestBudget {
  private used = 0;

  constructor(readonly limit: number) {}

  get spent(): boolean {
    return this.used >= this.limit;
  }

  /** Counts one request about to go out; refuses it (`budget_exhausted`) once the budget is spent. */
  readonly take = (url: URL): void => {
    if (this.spent) {
      throw new ProviderError(
        "budget_exhausted",
        `the crawl's budget of ${this.limit} outbound requests is spent; ${url.host} was not asked`,
      );
    }
    this.used++;
  };
}
