/**
 * A local web site whose every path is one article page (title, heading, a paragraph five times), for
 * tests that fetch a real page through the SSRF-safe fetcher; the app must allow 127.0.0.1
 * (SEARCHMUX_FETCH_ALLOWLIST).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ArticleSite {
  /** http://127.0.0.1:<port> */
  origin: string;
  close(): void;
}

export async function startArticleSite(title: string, paragraph: string): Promise<ArticleSite> {
  const html = `<!DOCTYPE html><html><head><title>${title}</title></head><body><article><h1>${title}</h1>${`<p>${paragraph}</p>`.repeat(5)}</article></body></html>`;
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => server.close(),
  };
}
