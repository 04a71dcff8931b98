/**
 * A web site for crawl tests, on its own loopback server (robots.txt and the sitemap must sit at a site's
 * root, which the provider server's per-wire prefixes cannot give): a home page linking five sections of
 * five articles each (31 pages), a robots.txt that forbids /private/ and names a sitemap index, whose one
 * child lists /orphan (linked from nowhere), links that redirect to the cloud metadata address and to a
 * private network, a link to another site, a redirect onto a known page, a file that is not a page, and a
 * very long article; apart from it, /long-start (five long pages), /slow-start (a page that answers
 * after SLOW_PAGE_MS), /broken-start (three broken links before the five sections) and /all-broken (only
 * broken links, BROKEN_LINKS of them) and /big-start (a large site for crawl jobs: BIG_INDEXES index pages
 * of BIG_PAGES_PER_INDEX pages each, BIG_SITE_PAGES in all with the start); a broken link is a 404. Absolute URLs are written with the Host the request came to. The app reaches it
 * only through the SSRF allowlist (SEARCHMUX_FETCH_ALLOWLIST=127.0.0.1).
 */
import http from "node:http";
import { listenOnLoopback } from "@/tests/support/loopback-server";

const SECTIONS = 5;
const ARTICLES_PER_SECTION = 5;
/** Characters of the long article's body. */
export const LONG_PAGE_CHARS = 200_000;
export const OFF_SITE_URL = "https://elsewhere.example/page";
/** How long /slow takes to answer. */
export const SLOW_PAGE_MS = 5_000;
/** Links of /all-broken, every one a 404. */
export const BROKEN_LINKS = 40;
const BIG_INDEXES = 20;
const BIG_PAGES_PER_INDEX = 20;
/** Pages under /big-start, the start included: more than a 300-page crawl job reads. */
export const BIG_SITE_PAGES = 1 + BIG_INDEXES * (1 + BIG_PAGES_PER_INDEX);

export interface CrawlSite {
  /** http://<host>:<port> */
  origin: string;
  /** Request paths served so far, in order. */
  hits(): string[];
  /** Paths answered so far (headers sent), in order: a slow page appears only once its delay is over. */
  answered(): string[];
  close(): Promise<void>;
}

const PARAGRAPH =
  "This article explains one part of the product in enough words that the content checks take it for a real page. ";

function page(title: string, links: readonly string[], body = PARAGRAPH.repeat(4)): string {
  const nav = links.map((href) => `<a href="${href}">${href}</a>`).join(" ");
  return `<!DOCTYPE html><html><head><title>${title}</title></head><body><nav>${nav}</nav><article><h1>${title}</h1><p>${body}</p></article></body></html>`;
}

const sectionPath = (s: number) => `/section/${s}`;
const articlePath = (s: number, a: number) => `/section/${s}/article-${a}`;

type Answer = { status?: number; type?: string; body?: string; location?: string; delayMs?: number };

function route(path: string, origin: string): Answer | undefined {
  if (path === "/robots.txt") {
    return {
      type: "text/plain",
      body: `User-agent: *\nDisallow: /private/\n\nSitemap: ${origin}/sitemap.xml\n`,
    };
  }
  if (path === "/sitemap.xml") {
    return {
      type: "application/xml",
      body: `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${origin}/sitemap-pages.xml</loc></sitemap></sitemapindex>`,
    };
  }
  if (path === "/sitemap-pages.xml") {
    return {
      type: "application/xml",
      body: `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/</loc></url><url><loc>${origin}/orphan</loc></url></urlset>`,
    };
  }
  if (path === "/") {
    const sections = Array.from({ length: SECTIONS }, (_, i) => sectionPath(i + 1));
    return {
      body: page("Home", [
        ...sections,
        "/private/secret",
        "/go/metadata",
        "/go/intranet",
        OFF_SITE_URL,
        "/old-section",
        "/long",
        "/files/manual.zip",
        "mailto:team@example.com",
        "#top",
      ]),
    };
  }
  const section = /^\/section\/(\d+)$/.exec(path);
  if (section) {
    const s = Number(section[1]);
    const articles = Array.from({ length: ARTICLES_PER_SECTION }, (_, i) => articlePath(s, i + 1));
    return { body: page(`Section ${s}`, ["/", ...articles]) };
  }
  const article = /^\/section\/(\d+)\/article-(\d+)$/.exec(path);
  if (article)
    return { body: page(`Article ${article[1]}.${article[2]}`, ["/", sectionPath(Number(article[1]))]) };
  if (path === "/orphan") return { body: page("Orphan", []) };
  if (path === "/private/secret") return { body: page("Secret", []) };
  if (path === "/long" || path.startsWith("/long?"))
    return { body: page("Long", ["/"], "word ".repeat(LONG_PAGE_CHARS / 5)) };
  // Starts of their own, linked from nowhere: five long pages, and a page that answers too late.
  if (path === "/long-start")
    return {
      body: page("Long pages", ["/long", "/long?part=2", "/long?part=3", "/long?part=4", "/long?part=5"]),
    };
  if (path === "/slow-start") return { body: page("Slow pages", ["/slow"]) };
  if (path === "/broken-start") {
    const sections = Array.from({ length: SECTIONS }, (_, i) => sectionPath(i + 1));
    return { body: page("Some broken links", ["/broken/1", "/broken/2", "/broken/3", ...sections]) };
  }
  if (path === "/all-broken") {
    const links = Array.from({ length: BROKEN_LINKS }, (_, i) => `/broken/${i + 1}`);
    return { body: page("Only broken links", links) };
  }
  if (path === "/big-start")
    return {
      body: page(
        "Big site",
        Array.from({ length: BIG_INDEXES }, (_, i) => `/big/${i + 1}`),
      ),
    };
  const bigIndex = /^\/big\/(\d+)$/.exec(path);
  if (bigIndex && Number(bigIndex[1]) <= BIG_INDEXES) {
    const links = Array.from({ length: BIG_PAGES_PER_INDEX }, (_, j) => `${path}/${j + 1}`);
    return { body: page(`Index ${bigIndex[1]}`, links) };
  }
  const bigPage = /^\/big\/(\d+)\/(\d+)$/.exec(path);
  if (bigPage && Number(bigPage[1]) <= BIG_INDEXES && Number(bigPage[2]) <= BIG_PAGES_PER_INDEX)
    return { body: page(`Page ${bigPage[1]}.${bigPage[2]}`, [`/big/${bigPage[1]}`]) };
  if (path === "/slow") return { delayMs: SLOW_PAGE_MS, body: page("Slow", []) };
  if (path === "/go/metadata") return { status: 302, location: "http://169.254.169.254/latest/meta-data/" };
  if (path === "/go/intranet") return { status: 302, location: "http://10.0.0.1/admin" };
  if (path === "/old-section") return { status: 301, location: sectionPath(1) };
  if (path === "/gone") return { status: 410, body: page("Gone", []) };
  if (path === "/unavailable") return { status: 503, body: page("Down for maintenance", []) };
  return undefined;
}

/** `host`: a loopback address; the e2e server allowlists one of its own rather than 127.0.0.1. */
export async function startCrawlSite(host = "127.0.0.1"): Promise<CrawlSite> {
  const hits: string[] = [];
  const answered: string[] = [];
  const server = http.createServer((req, res) => {
    const path = req.url ?? "/";
    hits.push(path);
    res.once("finish", () => answered.push(path));
    const answer = route(path, `http://${req.headers.host}`);
    if (answer === undefined) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
      return;
    }
    if (answer.location !== undefined) {
      res.writeHead(answer.status ?? 302, { location: answer.location });
      res.end();
      return;
    }
    const send = () => {
      res.writeHead(answer.status ?? 200, { "content-type": `${answer.type ?? "text/html"}; charset=utf-8` });
      res.end(answer.body);
    };
    if (answer.delayMs === undefined) send();
    else {
      const timer = setTimeout(send, answer.delayMs);
      res.on("close", () => clearTimeout(timer));
    }
  });
  const listening = await listenOnLoopback(server, host);
  return {
    origin: listening.origin,
    hits: () => [...hits],
    answered: () => [...answered],
    close: listening.close,
  };
}
