/**
 * What a crawl still has to visit and what it has decided about every link so far: the same-site rule,
 * each page once, the depth limit, include/exclude paths, and the skipped list (the first 100 listed, all
 * counted). Breadth-first: links are queued in discovery order, and a page's links are one hop deeper.
 */
import type { CrawlInput } from "./input";
import { isPageLink, pathMatcher, siteOf, visitKey } from "./site";

/** Entries listed in `skipped`; `skippedCount` has them all. */
const MAX_SKIPPED_LISTED = 100;

export interface FrontierItem {
  url: URL;
  depth: number;
  /** Discovery order, which the pages are listed in. */
  order: number;
}

export class Frontier {
  readonly queue: FrontierItem[];
  readonly skipped: Array<{ url: string; reason: string }> = [];
  skippedCount = 0;
  /** New same-site links beyond max_depth. */
  beyondDepth = 0;
  private readonly sites: Set<string>;
  private readonly seen: Set<string>;
  private readonly offSite = new Set<string>();
  private readonly included: ((path: string) => boolean) | undefined;
  private readonly excluded: ((path: string) => boolean) | undefined;
  private discovered = 1;

  constructor(
    start: URL,
    private readonly input: Pick<CrawlInput, "max_depth" | "include_paths" | "exclude_paths">,
  ) {
    this.sites = new Set([siteOf(start)]);
    this.seen = new Set([visitKey(start)]);
    this.queue = [{ url: start, depth: 0, order: 0 }];
    this.included = pathMatcher(input.include_paths);
    this.excluded = pathMatcher(input.exclude_paths);
  }

  /** Distinct links to other sites seen. */
  get offSiteCount(): number {
    return this.offSite.size;
  }

  isSameSite(url: URL): boolean {
    return this.sites.has(siteOf(url));
  }

  /** Where the start page redirected to is the site too (a domain move, http → https, www). */
  addSite(url: URL): void {
    this.sites.add(siteOf(url));
  }

  /**
   * Marks a redirect's target visited; false when it already was (or is queued), so the page that
   * redirected there is a duplicate.
   */
  claim(url: URL): boolean {
    const key = visitKey(url);
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    return true;
  }

  skip(url: URL, reason: string): void {
    this.skippedCount++;
    if (this.skipped.length < MAX_SKIPPED_LISTED) this.skipped.push({ url: url.toString(), reason });
  }

  /** Queues `link` at `depth` when the crawl should visit it. */
  add(link: string, depth: number): void {
    if (!URL.canParse(link)) return;
    const url = new URL(link);
    url.hash = "";
    if (url.protocol !== "http:" && url.protocol !== "https:") return;
    if (!this.isSameSite(url)) {
      this.offSite.add(visitKey(url));
      return;
    }
    if (!isPageLink(url) || !this.claim(url)) return;
    if (depth > this.input.max_depth) {
      this.beyondDepth++;
      return;
    }
    if ((this.included && !this.included(url.pathname)) || this.excluded?.(url.pathname)) {
      this.skip(url, "excluded by include_paths / exclude_paths");
      return;
    }
    this.queue.push({ url, depth, order: this.discovered++ });
  }
}
