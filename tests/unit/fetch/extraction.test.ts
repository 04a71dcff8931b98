/**
 * The direct fetcher end to end (runFetch → safeFetch → extraction) against a loopback site reached
 * through the allowlist: saved pages of different shapes, PDF, charsets, size and time caps.
 */
import { readFileSync } from "node:fs";
import iconv from "iconv-lite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FetchFailed } from "@/lib/engine/fetch/errors";
import { MAX_HTML_CHARS } from "@/lib/engine/fetch/extract/html";
import { runFetch } from "@/lib/engine/fetch/run-fetch";
import { generous } from "@/tests/support/generous";
import { directEntry, LOOPBACK_ONLY } from "./entries";
import { makePdf } from "./pdf-fixture";
import { type Site, type SiteRoute, startSite } from "./site-server";

const fixture = (name: string) => readFileSync(`tests/fakes/pages/${name}.html`);
const LONG_PARAGRAPH =
  "Le café du coin sert une crème brûlée naïve et délicieuse, « comme autrefois ». ".repeat(5);
const JAPANESE = "日本語のテキストです。東京の天気は晴れ、気温は二十度でした。".repeat(8);

const routes: Record<string, SiteRoute> = {
  "/news": { body: fixture("news-article") },
  "/blog": { body: fixture("blog-post") },
  "/docs": { body: fixture("docs-page") },
  "/forum": { body: fixture("forum-thread") },
  "/product": { body: fixture("product-page") },
  "/code": { body: fixture("tables-and-code") },
  "/paper.pdf": {
    headers: { "content-type": "application/pdf" },
    body: makePdf(
      [
        [
          "Searchmux test document, page one.",
          "It explains why fetch engines extract text from PDF files.",
          "Readers want the words, not the layout, so the text comes out page by page.",
        ],
        [
          "Page two continues the argument.",
          "A page count travels in the metadata so agents know how long the document is.",
        ],
      ],
      "Test PDF Title",
    ),
  },
  "/cp1252": {
    headers: { "content-type": "text/html; charset=windows-1252" },
    body: iconv.encode(
      `<html><head><title>Café</title></head><body><article><p>${LONG_PARAGRAPH} “curly” — dash</p></article></body></html>`,
      "windows-1252",
    ),
  },
  "/latin1-meta": {
    headers: { "content-type": "text/html" },
    body: iconv.encode(
      `<html><head><meta charset="ISO-8859-1"><title>Crème</title></head><body><article><p>${LONG_PARAGRAPH}</p></article></body></html>`,
      "latin1",
    ),
  },
  "/sjis-meta": {
    headers: { "content-type": "text/html" },
    body: iconv.encode(
      `<html><head><meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS"><title>天気</title></head><body><article><p>${JAPANESE}</p></article></body></html>`,
      "shift_jis",
    ),
  },
  "/utf16-bom": {
    // The BOM wins over a wrong header, as in browsers.
    headers: { "content-type": "text/html; charset=iso-8859-1" },
    body: Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      iconv.encode(`<html><body><article><p>${JAPANESE}</p></article></body></html>`, "utf-16le"),
    ]),
  },
  "/plain.txt": {
    headers: { "content-type": "text/plain; charset=utf-8" },
    body: `Plain text file.\n\n${"Line of text. ".repeat(30)}`,
  },
  "/data.json": {
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ items: Array.from({ length: 20 }, (_, i) => ({ id: i, name: `item ${i}` })) }),
  },
  "/image.png": {
    headers: { "content-type": "image/png" },
    body: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  },
  "/huge": { body: hugeArticle(3 * 1024 * 1024) },
  "/endless": { endless: true },
  "/gone": { status: 404, body: "<html><body><h1>Not found</h1></body></html>" },
  "/short": { body: "<html><head><title>Tiny</title></head><body><p>Just a short note.</p></body></html>" },
};

let site: Site;
beforeAll(async () => {
  site = await startSite(routes);
});
afterAll(async () => {
  await site.close();
});

const fetchPage = (path: string, extra: Record<string, unknown> = {}) =>
  runFetch({
    input: { url: `${site.url}${path}`, ...extra },
    providers: [directEntry()],
    ssrf: LOOPBACK_ONLY,
  });

describe("saved pages: main text kept, boilerplate dropped", () => {
  const cases: Array<[string, string[], string[]]> = [
    [
      "/news",
      [
        "# City council approves new tram line to the harbour",
        "voted 31 to 12",
        "## Seven new stops",
        '> "This is the most important transport decision',
      ],
      [
        "Advertisement",
        "Buy cheap flights",
        "Subscribe to our newsletter",
        "Related stories",
        "All rights reserved",
        "We use cookies",
      ],
    ],
    [
      "/blog",
      [
        "SQLite running in WAL mode",
        "## What I gave up",
        "-   Full-text search moved from `tsvector` to FTS5",
      ],
      ["Popular posts", "Share this post", "Made with a static site generator"],
    ],
    [
      "/docs",
      [
        '| `output.dir` | string | `"dist"` | Directory for rendered pages |',
        '```toml\n[output]\ndir = "public"',
        "purge your CDN",
      ],
      ["Installation", "Edit on GitHub", "Built with Sphinx"],
    ],
    [
      "/forum",
      ["0.6 bar by the morning", "pressure relief valve discharge pipe", "has held at 1.4 bar"],
      ["Who's online", "Boiler cover from", "Powered by ForumSoft"],
    ],
    [
      "/product",
      ["Vibram-Megagrip-Außensohle", "280 Gramm in Größe 42"],
      ["Warenkorb (0)", "Kunden kauften auch", "Impressum"],
    ],
    [
      "/code",
      [
        "| Insert | 41.2 M | 28.7 M |",
        "~~71.0 M~~ 59.8 M",
        "```rust\nuse std::collections::HashMap;",
        "```go\nfunc insertAll",
        "fn insert_all(keys: &[u64])",
      ],
      ["Licensed CC BY 4.0", "[Talks]"],
    ],
  ];

  it.each(cases)("%s", async (path, kept, dropped) => {
    const result = await fetchPage(path);
    expect(result.provider).toBe("direct");
    expect(result.providers_failed).toEqual([]);
    for (const text of kept) expect(result.content).toContain(text);
    for (const text of dropped) expect(result.content).not.toContain(text);
  });

  it("reports page metadata: title, byline, date, language, canonical and final URL", async () => {
    const result = await fetchPage("/news");
    expect(result.title).toBe("City council approves new tram line to the harbour");
    expect(result.final_url).toBe(`${site.url}/news`);
    expect(result.metadata).toMatchObject({
      byline: "Maria Okafor",
      published: "2024-03-14T09:30:00Z",
      language: "en-GB",
      canonical_url: "https://gazette.example/news/2024/03/tram-line-harbour",
      site_name: "The Riverside Gazette",
      content_type: "text/html",
      status: 200,
      truncated: false,
    });
    expect(result.content).toContain(`[Maria Okafor](${site.url}/authors/maria-okafor)`);
  });

  it("delivers text and html formats", async () => {
    const text = await fetchPage("/code", { format: "text" });
    expect(text.format).toBe("text");
    expect(text.content).toContain("Benchmarking hash maps in Rust and Go");
    expect(text.content).not.toMatch(/^#|\]\(|```/m);
    const html = await fetchPage("/code", { format: "html" });
    expect(html.format).toBe("html");
    expect(html.content).toMatch(/<table>[\s\S]*<td>41\.2 M<\/td>/);
    expect(html.content).not.toContain("<nav");
  });

  it("cuts at max_chars with an honest marker", async () => {
    const result = await fetchPage("/news", { max_chars: 400 });
    expect(result.metadata.truncated).toBe(true);
    expect(result.metadata.total_chars).toBeGreaterThan(1_500);
    expect(result.content).toMatch(/\[… truncated: \d+ more characters; showing 400 of \d+\]$/);
    expect(result.content.length).toBeLessThan(400 + 80);
  });
});

describe("other content types", () => {
  it("extracts PDF text with the page count and title", async () => {
    const result = await fetchPage("/paper.pdf");
    expect(result.content).toContain("Searchmux test document, page one.");
    expect(result.content).toContain("Page two continues the argument.");
    expect(result.metadata).toMatchObject({ pages: 2, content_type: "application/pdf" });
    expect(result.title).toBe("Test PDF Title");
  });

  it("passes text/plain and JSON through", async () => {
    expect((await fetchPage("/plain.txt")).content).toMatch(/^Plain text file\.\n\nLine of text\./);
    const json = await fetchPage("/data.json");
    expect(JSON.parse(json.content)).toMatchObject({
      items: expect.arrayContaining([{ id: 3, name: "item 3" }]),
    });
  });

  it("refuses binary types with a clear reason", async () => {
    const error = await fetchPage("/image.png").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FetchFailed);
    expect((error as FetchFailed).providersFailed).toEqual([
      expect.objectContaining({
        provider: "direct",
        reason: "unsupported_content_type",
        message: "unsupported content type: image/png",
      }),
    ]);
  });

  it("fails the step on an HTTP error status", async () => {
    const error = (await fetchPage("/gone").catch((e: unknown) => e)) as FetchFailed;
    expect(error.providersFailed[0]).toMatchObject({ provider: "direct", reason: "http_error", status: 404 });
  });

  it("keeps a short page when nothing better exists, with a warning", async () => {
    const result = await fetchPage("/short");
    expect(result.content).toContain("Just a short note.");
    expect(result.metadata.warning).toMatch(/characters of text/);
    expect(result.providers_failed).toEqual([]);
  });
});

describe("charsets", () => {
  it.each([
    ["/cp1252", ["crème brûlée naïve", "« comme autrefois »", "“curly” — dash"]],
    ["/latin1-meta", ["crème brûlée naïve"]],
    ["/sjis-meta", ["東京の天気は晴れ"]],
    ["/utf16-bom", ["東京の天気は晴れ"]],
  ])("decodes %s", async (path, expected) => {
    const result = await fetchPage(path);
    for (const text of expected) expect(result.content).toContain(text);
    expect(result.content).not.toContain("\uFFFD");
  });
});

describe("caps", () => {
  it("extracts the first MAX_HTML_CHARS of a 3 MB page, saying so", async () => {
    const started = performance.now();
    const result = await fetchPage("/huge", { max_chars: 1_000_000 });
    expect(result.metadata.html_cut).toEqual({
      kept_chars: expect.any(Number),
      total_chars: expect.any(Number),
    });
    expect(result.metadata.html_cut?.kept_chars).toBeLessThanOrEqual(MAX_HTML_CHARS);
    expect(result.metadata.html_cut?.total_chars).toBeGreaterThan(3_000_000);
    expect(result.metadata.total_chars).toBeGreaterThan(0.9 * MAX_HTML_CHARS);
    expect(result.metadata.truncated).toBe(true);
    expect(result.content).toContain("Paragraph 600 of the long report");
    // Well under a second here; the bound only catches a step gone quadratic (minutes over 3 MB). How fast
    // extraction is belongs to the bench (`fetch-engine`).
    expect(performance.now() - started).toBeLessThan(generous(1_500));
  });

  it("refuses a body over the byte cap", async () => {
    const error = (await runFetch({
      input: { url: `${site.url}/huge` },
      providers: [directEntry()],
      ssrf: LOOPBACK_ONLY,
      maxBytes: 1024 * 1024,
    }).catch((e: unknown) => e)) as FetchFailed;
    expect(error.providersFailed[0]).toMatchObject({ provider: "direct", reason: "too_large" });
  });

  it("a never-ending response cannot hold the request past the deadline", async () => {
    const started = performance.now();
    const error = (await fetchPage("/endless", { timeout_ms: 1_000 }).catch(
      (e: unknown) => e,
    )) as FetchFailed;
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(FetchFailed);
    expect(error.providersFailed[0]).toMatchObject({ provider: "direct", reason: "timeout" });
    // The deadline hung up on the drip (it never ends by itself); the bound is generous yet a third of the
    // default deadline (30 s), so a timeout_ms that is not applied still fails.
    await site.dropped("/endless");
    expect(elapsed).toBeLessThan(generous(1_000));
  });
});

function hugeArticle(bytes: number): string {
  const paragraphs: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const paragraph = `<p>Paragraph ${i} of the long report. ${"The committee reviewed the figures and found them consistent with the previous year. ".repeat(16)}</p>`;
    paragraphs.push(paragraph);
    size += paragraph.length;
  }
  return `<html><head><title>Long report</title></head><body><nav><a href="/">Home</a></nav><article><h1>Long report</h1>${paragraphs.join("\n")}</article></body></html>`;
}
