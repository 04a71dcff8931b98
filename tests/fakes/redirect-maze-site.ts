/**
 * A big site built to multiply a crawl's outbound requests, on its own loopback server: every link (and
 * every sitemap robots.txt names) reaches its target through a chain of MAX_REDIRECTS redirects, the most
 * the SSRF-safe client follows, so each page costs six requests; every page links to LINKS_PER_PAGE new
 * pages, so the site never runs out before a crawl's limits do; robots.txt names SITEMAPS sitemaps, each
 * listing more chained links. Counts every request it answers.
 */
import http from "node:http";
import { MAX_REDIRECTS } from "@/lib/http/safe-fetch";
import { listenOnLoopback } from "@/tests/support/loopback-server";

const LINKS_PER_PAGE = 8;
const SITEMAPS = 6;
const SITEMAP_ENTRIES = 20;

export interface RedirectMazeSite {
  /** http://<host>:<port> */
  origin: string;
  /** Requests answered so far. */
  requests(): number;
  close(): Promise<void>;
}

/** The start of the redirect chain that ends at `target`. */
const chained = (target: string) => `/hop/${MAX_REDIRECTS}${target}`;

const page = (n: number) => {
  const links = Array.from({ length: LINKS_PER_PAGE }, (_, i) =>
    chained(`/page/${n * LINKS_PER_PAGE + i + 1}`),
  );
  const nav = links.map((href) => `<a href="${href}">${href}</a>`).join(" ");
  return `<!DOCTYPE html><html><head><title>Page ${n}</title></head><body><nav>${nav}</nav><article><h1>Page ${n}</h1><p>${"A page of the maze with enough words to read as one. ".repeat(4)}</p></article></body></html>`;
};

type Answer = { status: number; type?: string; body?: string; location?: string };

function route(path: string, origin: string): Answer {
  const hop = /^\/hop\/(\d+)(\/.*)$/.exec(path);
  if (hop) {
    const left = Number(hop[1]) - 1;
    const target = hop[2] as string;
    return { status: 302, location: left > 0 ? `/hop/${left}${target}` : target };
  }
  if (path === "/robots.txt") {
    const sitemaps = Array.from(
      { length: SITEMAPS },
      (_, i) => `Sitemap: ${origin}${chained(`/sitemap/${i}`)}`,
    );
    return { status: 200, type: "text/plain", body: `User-agent: *\nAllow: /\n\n${sitemaps.join("\n")}\n` };
  }
  const sitemap = /^\/sitemap\/(\d+)$/.exec(path);
  if (sitemap) {
    const first = 100_000 * (Number(sitemap[1]) + 1);
    const urls = Array.from(
      { length: SITEMAP_ENTRIES },
      (_, i) => `<url><loc>${origin}${chained(`/page/${first + i}`)}</loc></url>`,
    );
    return {
      status: 200,
      type: "application/xml",
      body: `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join("")}</urlset>`,
    };
  }
  if (path === "/") return { status: 200, body: page(0) };
  const numbered = /^\/page\/(\d+)$/.exec(path);
  if (numbered) return { status: 200, body: page(Number(numbered[1])) };
  return { status: 404, type: "text/plain", body: "not found" };
}

export async function startRedirectMazeSite(): Promise<RedirectMazeSite> {
  let requests = 0;
  const server = http.createServer((req, res) => {
    requests++;
    const answer = route(req.url ?? "/", `http://${req.headers.host}`);
    const headers: http.OutgoingHttpHeaders =
      answer.location === undefined
        ? { "content-type": `${answer.type ?? "text/html"}; charset=utf-8` }
        : { location: answer.location };
    res.writeHead(answer.status, headers);
    res.end(answer.body);
  });
  const listening = await listenOnLoopback(server);
  return {
    origin: listening.origin,
    requests: () => requests,
    close: listening.close,
  };
}
