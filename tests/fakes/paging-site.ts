/**
 * A local site for fetch's paging and many-URL calls (the app must allow 127.0.0.1): `/long` is an article
 * of more than 300,000 characters in numbered paragraphs, `/book.pdf` a PDF of 300 pages, `/page/<n>` a
 * short article answered after `delayMs` (`/slow/<n>` after 600 ms), anything else a 404. It counts requests per path and the most it
 * served at once.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { makePdf } from "@/tests/unit/fetch/pdf-fixture";

export const LONG_PARAGRAPHS = 2_100;
export const BOOK_PAGES = 300;

const paragraph = (n: number) =>
  `Paragraph ${n} of the long report explains, in plain words, how each stage of the pipeline hands its batch to the next one and what it records on the way.`;
const LONG = `<!DOCTYPE html><html><head><title>Long report</title></head><body><article><h1>Long report</h1>${Array.from(
  { length: LONG_PARAGRAPHS },
  (_, i) => `<p>${paragraph(i + 1)}</p>`,
).join("")}</article></body></html>`;
const BOOK = makePdf(
  Array.from({ length: BOOK_PAGES }, (_, i) => [
    `Chapter ${i + 1} begins here.`,
    `This page of the manual describes step ${i + 1} of the installation.`,
  ]),
  "Manual",
);
const article = (title: string) =>
  `<!DOCTYPE html><html><head><title>${title}</title></head><body><article><h1>${title}</h1>${`<p>${title} is one of the short pages of the paging site, served to test many fetches in one call.</p>`.repeat(4)}</article></body></html>`;

export interface PagingSite {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** Requests per path since the last reset. */
  requests(path: string): number;
  /** The most requests in flight at once since the last reset. */
  maxConcurrent(): number;
  reset(): void;
  close(): void;
}

export async function startPagingSite({ delayMs = 0 } = {}): Promise<PagingSite> {
  const counts = new Map<string, number>();
  let inFlight = 0;
  let peak = 0;
  const server = http.createServer((req, res) => {
    const path = req.url ?? "/";
    counts.set(path, (counts.get(path) ?? 0) + 1);
    inFlight += 1;
    peak = Math.max(peak, inFlight);
    res.on("close", () => {
      inFlight -= 1;
    });
    if (path === "/long") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      return res.end(LONG);
    }
    if (path === "/book.pdf") {
      res.writeHead(200, { "content-type": "application/pdf" });
      return res.end(BOOK);
    }
    const [, kind, name] = /^\/(page|slow)\/(.+)$/.exec(path) ?? [];
    if (kind !== undefined) {
      setTimeout(
        () => {
          res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
          res.end(article(`Page ${name}`));
        },
        kind === "slow" ? 600 : delayMs,
      );
      return;
    }
    res.writeHead(404, { "content-type": "text/html" });
    res.end("<html><body><h1>Not found</h1></body></html>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: (path) => counts.get(path) ?? 0,
    maxConcurrent: () => peak,
    reset: () => {
      counts.clear();
      peak = inFlight;
    },
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
