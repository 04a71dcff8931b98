/**
 * crawl engine entry point: from a start URL, the same site's pages breadth-first to a depth and page
 * limit. No database, no env: the fetcher (the direct step), the SSRF allowlist and the signal come from
 * the caller.
 *
 * Every page goes through the fetch engine's direct step (attemptStep: the SSRF-guarded client, every
 * redirect hop checked again, extraction to Markdown, the content checks), so a crawled page reads like a
 * fetched one; a page the checks find only too short still counts (index pages are mostly links).
 * robots.txt is read once per origin and obeyed; the sitemap (robots.txt's Sitemap: lines, else
 * /sitemap.xml; an index one level deep) seeds the frontier at depth 1, after the start page's own links.
 * A few pages are fetched at once. Every outbound request (pages, redirect hops, robots.txt, sitemaps)
 * counts against the crawl's request budget (request-budget.ts). `max_pages` counts the pages returned: a
 * page that fails (an error, a redirect off the site) frees its place for the next, up to ATTEMPTS_PER_PAGE
 * visits per page of the limit, so a site of broken links still ends. The crawl stops at the page limit, at
 * the attempts, at the request budget, at the character budget (pages mode), at its deadline, or (a job) when
 * it lists too few pages a minute (CRAWL_JOB_LIMITS.progressFloor), returning what it has and why it stopped.
 *
 * Throws: ZodError for invalid input, SsrfBlocked when the start URL (or its robots.txt, or a redirect
 * of the start page) is a refused target.
 */
import { attemptStep, type StepContext } from "@/lib/engine/fetch/attempt";
import { isOriginVerdict } from "@/lib/engine/fetch/origin-verdict";
import { renderContent } from "@/lib/engine/fetch/render";
import type { FetchedDocument, FetchFailure, FetchProviderEntry, FetchSpan } from "@/lib/engine/fetch/types";
import { type LinkedAbort, linkedAbort } from "@/lib/engine/shared/abort";
import { type Allowlist, checkUrl, type Resolver, SsrfBlocked, type SsrfPolicy } from "@/lib/http/ssrf";
import { fetchText, type TextFetchContext } from "./fetch-text";
import { Frontier, type FrontierItem } from "./frontier";
import {
  CRAWL_JOB_LIMITS,
  CRAWL_LIMITS,
  type CrawlInput,
  type CrawlInputRaw,
  crawlInputSchema,
  type ProgressFloor,
  pageLimit,
} from "./input";
import { RequestBudget, requestLimit } from "./request-budget";
import { type RobotsRules, robotsRules } from "./robots";
import { visitKey } from "./site";
import { sitemapEntries } from "./sitemap";
import { TaskPool } from "./task-pool";

/** Pages fetched at once: quick enough for an agent, gentle on the site. */
const CONCURRENCY = 4;
/** Decoded body cap per page: a crawl reads many, and the content is cut far below this anyway. */
const PAGE_MAX_BYTES = 5 * 1024 * 1024;
const ROBOTS_MAX_BYTES = 512 * 1024;
const SITEMAP_MAX_BYTES = 10 * 1024 * 1024;
/** Sitemaps read per crawl (declared or guessed ones plus one level of an index's children). */
const MAX_SITEMAPS = 5;
const MAX_SITEMAP_URLS = 1_000;
/** Page visits a crawl may start per page of max_pages: the page itself, and one more for a page that fails. */
const ATTEMPTS_PER_PAGE = 2;

export interface RunCrawlArgs {
  /** Validated here; already-validated input passes unchanged. */
  input: CrawlInputRaw;
  /** The step every page, robots.txt and sitemap is fetched with: the free direct fetcher. */
  fetcher: FetchProviderEntry;
  ssrf: { allowlist: Allowlist; resolver?: Resolver; allowedPorts?: readonly number[] };
  /** The operator's ceiling on one crawl's outbound requests (SEARCHMUX_CRAWL_MAX_REQUESTS). */
  maxRequests: number;
  /** The caller's cancellation (client gone). */
  signal?: AbortSignal;
  /** Told of each fetch as it ends (live progress). */
  onSpan?(span: FetchSpan): void;
  /** Run as a background job: the job's caps, result size and deadline (CRAWL_JOB_LIMITS). */
  job?: boolean;
  /** Told of each page listed, with the pages still queued (a job's progress and partial result). */
  onPage?(page: CrawledPage, queued: number): void;
  /** A job's floor on progress; CRAWL_JOB_LIMITS.progressFloor unless given (tests shorten it). */
  progressFloor?: ProgressFloor;
}

type CrawlStop = "complete" | "depth" | "page_limit" | "char_limit" | "deadline" | "slow_progress";

export interface CrawledPage {
  url: string;
  final_url: string;
  title: string;
  depth: number;
  /** pages mode; left out once the result's character budget is spent. */
  content?: string;
  /** The page's full length in the requested format. */
  chars: number;
  truncated?: true;
}

interface CrawlSkip {
  url: string;
  reason: string;
}

interface CrawlError {
  url: string;
  code: string;
  message: string;
}

export interface CrawlResult {
  url: string;
  mode: CrawlInput["mode"];
  pages: CrawledPage[];
  skipped: CrawlSkip[];
  errors: CrawlError[];
  counts: {
    pages: number;
    skipped: number;
    errors: number;
    /** Distinct links to other sites, not followed. */
    off_site: number;
  };
  stopped: CrawlStop;
  /** Why the crawl stopped before its frontier was done, in words. */
  note?: string;
  spans: FetchSpan[];
  duration_ms: number;
  /** The start page's site said it does not exist (404/410, origin-verdict.ts): the crawl is not_found. */
  originVerdict?: FetchFailure;
}

/** One crawl's state, shared by its stages. */
interface Crawl {
  args: RunCrawlArgs;
  input: CrawlInput;
  start: URL;
  /** performance.now() at the start: span offsets and the duration are measured from it. */
  origin: number;
  maxPages: number;
  /** Aborted by the first unexpected error, which stops the other tasks. */
  halt: AbortController;
  /** A job's progress floor, and the pages it listed in the window that stopped it (set when it did). */
  floor?: ProgressFloor;
  slow?: { pages: number };
  /** Aborted when the job made too little progress. */
  tooSlow: AbortController;
  deadline: LinkedAbort;
  requests: RequestBudget;
  /** How robots.txt and sitemaps are fetched. */
  texts: TextFetchContext;
  /** How pages are fetched (each with its own URL). */
  step: StepContext;
  frontier: Frontier;
  pages: Array<CrawledPage & { order: number }>;
  errors: CrawlError[];
  originVerdict?: FetchFailure;
  spans: FetchSpan[];
  /** robots.txt rules per origin, each fetched once. */
  robots: Map<string, Promise<RobotsRules>>;
  /** The result's character budget (pages mode), and what is left of it. */
  totalChars: number;
  charsLeft: number;
  /** Page visits in flight: with the pages listed, what max_pages counts. */
  visiting: number;
  /** Page visits started so far, failed ones included (at most ATTEMPTS_PER_PAGE × max_pages). */
  attempts: number;
}

export async function runCrawl(args: RunCrawlArgs): Promise<CrawlResult> {
  const crawl = startCrawl(args);
  const tasks = new TaskPool(crawl.halt);
  const stopWatching = watchProgress(crawl);
  try {
    await walkFrontier(crawl, tasks);
  } catch (error) {
    tasks.fail(error);
  }
  await tasks.drain();
  stopWatching();
  const aborted = crawl.deadline.signal.aborted;
  crawl.deadline.dispose();
  tasks.throwIfFailed();
  return crawlResult(crawl, stopReason(crawl, aborted));
}

/** Validates the input, refuses a start URL that is a refused target, and sets up the crawl's state. */
function startCrawl(args: RunCrawlArgs): Crawl {
  const origin = performance.now();
  const input = crawlInputSchema.parse(args.input);
  const start = new URL(input.url);
  const policy: SsrfPolicy = { allowlist: args.ssrf.allowlist, allowedPorts: args.ssrf.allowedPorts };
  checkUrl(start, policy);

  const maxPages = pageLimit(input, args.job);
  const halt = new AbortController();
  const tooSlow = new AbortController();
  const deadlineMs = args.job ? CRAWL_JOB_LIMITS.deadlineMs : input.timeout_ms;
  const deadline = linkedAbort(
    [args.signal, halt.signal, tooSlow.signal],
    deadlineMs,
    `crawl stopped at the ${deadlineMs} ms deadline`,
  );
  const totalChars = args.job ? CRAWL_JOB_LIMITS.totalChars : CRAWL_LIMITS.totalChars;
  const requests = new RequestBudget(requestLimit(maxPages, args.maxRequests));
  const network = {
    ssrf: policy,
    resolver: args.ssrf.resolver,
    maxBytes: PAGE_MAX_BYTES,
    beforeRequest: requests.take,
  };
  const crawl: Crawl = {
    args,
    input,
    start,
    origin,
    maxPages,
    halt,
    ...(args.job && { floor: args.progressFloor ?? CRAWL_JOB_LIMITS.progressFloor }),
    tooSlow,
    deadline,
    requests,
    texts: {
      fetcher: args.fetcher,
      network,
      deadline: deadline.signal,
      origin,
      onSpan: (span) => recordSpan(crawl, span),
    },
    step: { url: start, format: input.format, network, deadline: deadline.signal, origin },
    frontier: new Frontier(start, input),
    pages: [],
    errors: [],
    spans: [],
    robots: new Map(),
    totalChars,
    charsLeft: totalChars,
    visiting: 0,
    attempts: 0,
  };
  return crawl;
}

/**
 * A job's progress check: at the end of each window past the grace period, fewer pages listed in that window
 * than the floor stop the crawl (`slow_progress`), as the deadline does. Returns what stops the checks.
 */
function watchProgress(crawl: Crawl): () => void {
  const { floor } = crawl;
  if (floor === undefined) return () => {};
  let listedBefore = 0;
  let elapsed = 0;
  const timer = setInterval(() => {
    elapsed += floor.windowMs;
    const listed = crawl.pages.length - listedBefore;
    listedBefore = crawl.pages.length;
    if (elapsed < floor.graceMs || listed >= floor.minPages) return;
    clearInterval(timer);
    crawl.slow = { pages: listed };
    crawl.tooSlow.abort(new Error("the crawl made too little progress"));
  }, floor.windowMs);
  timer.unref?.();
  return () => clearInterval(timer);
}

function recordSpan(crawl: Crawl, span: FetchSpan): void {
  crawl.spans.push(span);
  crawl.args.onSpan?.(span);
}

/**
 * Takes pages off the frontier while it has any and the limits allow, a few at a time, until nothing is
 * left in flight or the deadline passes. The start page's visit (or its refusal by robots.txt) is followed
 * by the sitemap seeding, so its own links come first.
 */
async function walkFrontier(crawl: Crawl, tasks: TaskPool): Promise<void> {
  while (!crawl.deadline.signal.aborted) {
    const item = mayLaunch(crawl, tasks) ? crawl.frontier.queue.shift() : undefined;
    if (item === undefined) {
      if (tasks.size === 0) return;
      await tasks.any();
      continue;
    }
    const refusal = (await robotsFor(crawl, item.url)).refusal(item.url);
    if (refusal !== undefined) {
      crawl.frontier.skip(item.url, refusal);
      if (item.depth === 0) tasks.launch(() => seedFromSitemaps(crawl));
      continue;
    }
    crawl.attempts++;
    crawl.visiting++;
    const visited = () =>
      visit(crawl, item).finally(() => {
        crawl.visiting--;
      });
    tasks.launch(item.depth === 0 ? () => visited().then(() => seedFromSitemaps(crawl)) : visited);
  }
}

/**
 * Whether another page may start: one is queued, the pages listed and in flight are fewer than max_pages, no
 * other limit is reached and a task slot is free.
 */
function mayLaunch(crawl: Crawl, tasks: TaskPool): boolean {
  return (
    crawl.frontier.queue.length > 0 &&
    crawl.pages.length + crawl.visiting < crawl.maxPages &&
    !attemptsSpent(crawl) &&
    !charsSpent(crawl) &&
    !crawl.requests.spent &&
    tasks.size < CONCURRENCY
  );
}

function attemptsSpent(crawl: Crawl): boolean {
  return crawl.attempts >= ATTEMPTS_PER_PAGE * crawl.maxPages;
}

function charsSpent(crawl: Crawl): boolean {
  return crawl.input.mode === "pages" && crawl.charsLeft <= 0;
}

/** The rules for `url`'s origin, fetched once. An unreadable robots.txt of the start is a refused target. */
function robotsFor(crawl: Crawl, url: URL): Promise<RobotsRules> {
  let rules = crawl.robots.get(url.origin);
  if (rules === undefined) {
    const robotsUrl = new URL("/robots.txt", url);
    rules = fetchText(robotsUrl, ROBOTS_MAX_BYTES, crawl.texts).then((fetched) => {
      if (!fetched.ok && fetched.failure.reason === "blocked" && url.origin === crawl.start.origin)
        throw new SsrfBlocked(fetched.failure.message ?? "refused target");
      return robotsRules(robotsUrl, fetched);
    });
    crawl.robots.set(url.origin, rules);
  }
  return rules;
}

/** Fetches one page and, when it stays on the site and is new, lists it and queues its links. */
async function visit(crawl: Crawl, item: FrontierItem): Promise<void> {
  const { frontier } = crawl;
  const document = await fetchPage(crawl, item);
  if (document === undefined) return;
  const finalUrl = new URL(document.finalUrl ?? item.url.toString());
  if (item.depth === 0) frontier.addSite(finalUrl);
  else if (!frontier.isSameSite(finalUrl)) {
    frontier.skip(item.url, `redirects off-site to ${finalUrl.toString()}`);
    return;
  }
  // A redirect onto a page already visited or queued: that page stands for both.
  if (visitKey(finalUrl) !== visitKey(item.url) && !frontier.claim(finalUrl)) return;
  const page = present(crawl, item, finalUrl, document);
  crawl.pages.push({ ...page, order: item.order });
  crawl.args.onPage?.(page, frontier.queue.length);
  for (const link of document.links ?? []) frontier.add(link, item.depth + 1);
}

/** The page through the direct step, or undefined with the reason listed in `errors`. */
async function fetchPage(crawl: Crawl, item: FrontierItem): Promise<FetchedDocument | undefined> {
  const { fetcher } = crawl.args;
  const started = performance.now();
  try {
    const outcome = await attemptStep(fetcher, { ...crawl.step, url: item.url });
    recordSpan(crawl, outcome.span);
    if (outcome.ok) return outcome.document;
    if (outcome.shortDocument) return outcome.shortDocument;
    const { reason, message } = outcome.failure;
    if (item.depth === 0 && isOriginVerdict(fetcher, outcome.failure)) crawl.originVerdict = outcome.failure;
    crawl.errors.push({ url: item.url.toString(), code: reason, message: message ?? reason });
  } catch (error) {
    // A refused hop (a redirect to a private address): the page is an error, the crawl goes on.
    if (!(error instanceof SsrfBlocked) || item.depth === 0) throw error;
    recordSpan(crawl, {
      provider: fetcher.provider.id,
      kind: "fetch",
      start_offset_ms: Math.round(started - crawl.origin),
      duration_ms: Math.round(performance.now() - started),
      outcome: "error",
      error: error.message,
    });
    crawl.errors.push({ url: item.url.toString(), code: "blocked", message: error.message });
  }
  return undefined;
}

/** The page as listed: in pages mode with its content, as far as the result's character budget goes. */
function present(crawl: Crawl, item: FrontierItem, finalUrl: URL, document: FetchedDocument): CrawledPage {
  const { input } = crawl;
  const page: CrawledPage = {
    url: item.url.toString(),
    final_url: finalUrl.toString(),
    title: document.title ?? document.metadata.title ?? "",
    depth: item.depth,
    chars: document.markdown.length,
  };
  if (input.mode === "map") return page;
  if (crawl.charsLeft <= 0) return { ...page, truncated: true };
  const rendered = renderContent(document, input.format, Math.min(input.max_chars, crawl.charsLeft));
  crawl.charsLeft -= rendered.content.length;
  page.content = rendered.content;
  page.chars = rendered.total_chars;
  if (rendered.truncated) page.truncated = true;
  return page;
}

/** The sitemap's pages, enqueued at depth 1 once the start page's links are in. */
async function seedFromSitemaps(crawl: Crawl): Promise<void> {
  const { input, start, frontier } = crawl;
  if (input.max_depth < 1) return;
  const declared = (await robotsFor(crawl, start)).sitemaps.filter(
    (url) => URL.canParse(url) && frontier.isSameSite(new URL(url)),
  );
  const pending = declared.length > 0 ? declared : [new URL("/sitemap.xml", start).toString()];
  const guessed = declared.length === 0;
  const roots = pending.length;
  for (
    let i = 0;
    i < pending.length && i < MAX_SITEMAPS && !crawl.deadline.signal.aborted && !crawl.requests.spent;
    i++
  ) {
    const entries = await readSitemap(crawl, new URL(pending[i] as string), guessed);
    if (entries === undefined) continue;
    for (const page of entries.pages) frontier.add(page, 1);
    // One level of an index: its children are read, their own children are not.
    if (i < roots) pending.push(...entries.sitemaps);
  }
}

/**
 * One sitemap's entries, or undefined with the reason listed in `errors`. A guessed /sitemap.xml the
 * site does not have is no error: there is just nothing to seed.
 */
async function readSitemap(
  crawl: Crawl,
  url: URL,
  guessed: boolean,
): Promise<ReturnType<typeof sitemapEntries> | undefined> {
  const fetched = await fetchText(url, SITEMAP_MAX_BYTES, crawl.texts);
  if (fetched.ok && fetched.status < 400) return sitemapEntries(fetched.text, MAX_SITEMAP_URLS);
  if (guessed && fetched.ok && fetched.status < 500) return undefined;
  crawl.errors.push(
    fetched.ok
      ? { url: url.toString(), code: "http_error", message: `sitemap answered HTTP ${fetched.status}` }
      : {
          url: url.toString(),
          code: fetched.failure.reason,
          message: fetched.failure.message ?? "unreadable",
        },
  );
  return undefined;
}

/**
 * Why the crawl ended. The character budget comes before the frontier: once it is spent, pages were read
 * without their content.
 */
function stopReason(crawl: Crawl, aborted: boolean): CrawlStop {
  if (crawl.slow) return "slow_progress";
  if (aborted) return "deadline";
  if (charsSpent(crawl)) return "char_limit";
  if (crawl.frontier.queue.length > 0) return "page_limit";
  if (crawl.frontier.beyondDepth > 0) return "depth";
  return "complete";
}

function crawlResult(crawl: Crawl, stopped: CrawlStop): CrawlResult {
  const { input, frontier, pages, errors } = crawl;
  const result: CrawlResult = {
    url: input.url,
    mode: input.mode,
    pages: pages.sort((a, b) => a.order - b.order).map(({ order: _, ...page }) => page),
    skipped: frontier.skipped,
    errors,
    counts: {
      pages: pages.length,
      skipped: frontier.skippedCount,
      errors: errors.length,
      off_site: frontier.offSiteCount,
    },
    stopped,
    spans: crawl.spans,
    duration_ms: Math.round(performance.now() - crawl.origin),
  };
  const note = stopNote(stopped, {
    input,
    deadlineMs: crawl.args.job ? CRAWL_JOB_LIMITS.deadlineMs : input.timeout_ms,
    totalChars: crawl.totalChars,
    maxPages: crawl.maxPages,
    unvisited: frontier.queue.length,
    requestLimit: crawl.requests.spent ? crawl.requests.limit : undefined,
    attempts: attemptsSpent(crawl) && pages.length < crawl.maxPages ? crawl.attempts : undefined,
    slow: crawl.floor && crawl.slow && { floor: crawl.floor, pages: crawl.slow.pages },
  });
  if (note !== undefined) result.note = note;
  // Only a crawl that read nothing ends with it (a sitemap may still have listed pages).
  if (crawl.originVerdict && pages.length === 0 && frontier.skipped.length === 0) {
    result.originVerdict = crawl.originVerdict;
  }
  return result;
}

function stopNote(
  stopped: CrawlStop,
  facts: {
    input: CrawlInput;
    deadlineMs: number;
    totalChars: number;
    maxPages: number;
    unvisited: number;
    /** The request budget, when it was spent. */
    requestLimit: number | undefined;
    /** The page visits started, when their limit stopped the crawl short of max_pages. */
    attempts: number | undefined;
    /** The progress floor and the pages listed in the window that fell below it, when one did. */
    slow: { floor: ProgressFloor; pages: number } | undefined;
  },
): string | undefined {
  const { input, deadlineMs, totalChars, maxPages, unvisited, requestLimit, attempts, slow } = facts;
  switch (stopped) {
    case "complete":
      return undefined;
    case "depth":
      return `links beyond max_depth ${input.max_depth} were not followed`;
    case "page_limit":
      if (requestLimit !== undefined)
        return `the crawl's budget of ${requestLimit} outbound requests (pages, redirects, robots.txt, sitemaps) is spent; queued pages not visited: ${unvisited}`;
      if (attempts !== undefined)
        return `${attempts} pages were tried (${ATTEMPTS_PER_PAGE} × max_pages ${maxPages}), too many of them failed; queued pages not visited: ${unvisited}`;
      return `max_pages ${maxPages} reached; queued pages not visited: ${unvisited}`;
    case "char_limit":
      return `the result's ${totalChars}-character budget is spent; queued pages not visited: ${unvisited} (lower max_chars or narrow with include_paths)`;
    case "slow_progress": {
      const window = slow ? `${slow.floor.windowMs / 1000} s` : "a minute";
      return `the site answers too slowly for a crawl job: ${slow?.pages ?? 0} pages read in the last ${window}, fewer than the ${slow?.floor.minPages ?? ""} a job must read to go on; queued pages not visited: ${unvisited} (crawl fewer pages synchronously, or narrow with include_paths)`;
    }
    case "deadline":
      return `${deadlineMs === input.timeout_ms ? `timeout_ms ${deadlineMs}` : `the job's ${deadlineMs / 60_000}-minute deadline`} reached; queued pages not visited: ${unvisited}`;
  }
}
