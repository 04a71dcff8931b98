/**
 * The pieces of HTML extraction around the Markdown writer: Readability with its linkedom speed-ups
 * (which must pick and clean exactly what stock Readability does), page facts read in one walk, and
 * the article HTML computed only when read.
 */
import { readFileSync } from "node:fs";
import { Readability } from "@mozilla/readability";
import { describe, expect, it } from "vitest";
import { parseDocument } from "@/lib/engine/fetch/extract/dom";
import { documentFromHtml } from "@/lib/engine/fetch/extract/html";
import { pageFacts } from "@/lib/engine/fetch/extract/page-facts";
import { readArticle } from "@/lib/engine/fetch/extract/readability";

const URL_ = "https://site.example/news/story";
const PAGES = ["news-article", "blog-post", "docs-page", "forum-thread", "product-page", "tables-and-code"];
const fixture = (name: string) => readFileSync(`tests/fakes/pages/${name}.html`, "utf8");

/** Hidden blocks (style, hidden, aria-hidden), a <template>, mixed-case tags, enough text to score. */
const HIDDEN_CONTENT = `<html><head><title>Hidden things</title></head><body><div id="main"><article>
  <h1>Hidden things</h1>
  ${Array.from({ length: 6 }, (_, i) => `<p>Paragraph ${i} of visible text, long enough for Readability to score it as part of the article body.</p>`).join("\n")}
  <div style="color: red; DISPLAY: none">Odd-case display is not read by linkedom either.</div>
  <div style="display : none">Hidden by style.</div>
  <div style="visibility:hidden;">Invisible by style.</div>
  <p hidden>Hidden by attribute.</p>
  <p aria-hidden="true">Hidden from readers.</p>
  <p aria-hidden="true" class="fallback-image">Math fallback stays.</p>
  <template><p>Template paragraph.</p></template>
  <DIV><SPAN>Upper-case markup with a <A HREF="/rel">relative link</A>.</SPAN></DIV>
</article></div></body></html>`;

/**
 * Too little text for Readability's first attempt, so it restores the page and retries with looser
 * rules: the restored page must be prepared as the first one was (noscript image, scripts, styles,
 * <font>, <br> runs).
 */
const RETRIED_PAGE = `<html><head><title>Short note</title><style>p { color: red }</style>
<script>window.tracking = true;</script></head><body>
<div class="sidebar"><p>Sidebar text that a first attempt drops as unlikely content for the page.</p></div>
<div id="note"><font face="serif">A short note</font> about the meeting.<br><br>It moved to Thursday.<br><br><br>Bring the figures.
<noscript><img src="/chart.png" alt="chart"></noscript><script>track()</script></div>
<div class="comments"><p>One comment on the note, short as well.</p></div>
</body></html>`;

/** Stock Readability on a document given the same URL, so only the speed-ups differ. */
function stockArticle(html: string) {
  const document = parseDocument(html);
  Object.defineProperty(document, "baseURI", { value: URL_ });
  Object.defineProperty(document, "documentURI", { value: URL_ });
  return new Readability(document, { keepClasses: true, serializer: (node: Node) => node }).parse();
}

describe("readArticle", () => {
  const written: Record<string, string> = { "hidden content": HIDDEN_CONTENT, "retried page": RETRIED_PAGE };
  it.each([...PAGES, ...Object.keys(written)])(
    "picks and cleans exactly what stock Readability does: %s",
    (page) => {
      const html = written[page] ?? fixture(page);
      const fast = readArticle(parseDocument(html), URL_, html);
      const stock = stockArticle(html);
      expect(fast).not.toBeNull();
      const { content, ...facts } = fast ?? {};
      const { content: stockContent, ...stockFacts } = stock ?? {};
      expect(facts).toEqual(stockFacts);
      expect((content as Element | undefined)?.outerHTML).toBe(
        (stockContent as Element | undefined)?.outerHTML,
      );
    },
  );

  it("drops hidden content and keeps the visible text", () => {
    const text = readArticle(parseDocument(HIDDEN_CONTENT), URL_, HIDDEN_CONTENT)?.textContent ?? "";
    expect(text).toContain("Paragraph 5 of visible text");
    expect(text).toContain("Math fallback stays.");
    for (const hidden of [
      "Hidden by style",
      "Invisible by style",
      "Hidden by attribute",
      "Hidden from readers",
    ])
      expect(text).not.toContain(hidden);
  });

  it("resolves relative links and images against the page (linkedom documents have no URL)", () => {
    const { html } = documentFromHtml(fixture("news-article"), URL_);
    expect(html).toContain('href="https://site.example/authors/maria-okafor"');
    expect(html).toContain('src="https://site.example/images/tram.jpg"');
    expect(html).not.toMatch(/(href|src)="\//);
  });
});

describe("pageFacts", () => {
  it("reads metadata as the selectors did: first match wins, http-equiv and rel compare case-insensitively", () => {
    const document = parseDocument(`<html><head>
      <template><meta name="author" content="Template author"></template>
      <meta name="author" content="First author"><meta name="author" content="Second author">
      <meta name="description" content="">
      <meta property="og:description" content="Open Graph description">
      <meta http-equiv="Content-LANGUAGE" content="de-CH">
      <link rel="Canonical" href="/canonical">
      <base href="https://cdn.example/base/">
      <title>  Page
        title </title>
    </head><body><time datetime="2024-01-02">2 January</time><div id="app"> </div><script>1</script></body></html>`);
    expect(pageFacts(document, URL_)).toEqual({
      base: "https://cdn.example/base/",
      metadata: {
        title: "Page title",
        canonical_url: "https://cdn.example/canonical",
        published: "2024-01-02",
        language: "de-CH",
        description: "Open Graph description",
        byline: "First author",
      },
      signals: { scripts: 1, emptyAppRoot: true },
    });
  });

  it("finds no app root when the mount point has content, and ignores an invalid <base>", () => {
    const document = parseDocument(
      '<html><head><base href="http://[bad"></head><body><div data-reactroot><p>Rendered</p></div></body></html>',
    );
    expect(pageFacts(document, URL_)).toMatchObject({
      base: URL_,
      signals: { scripts: 0, emptyAppRoot: false },
    });
  });
});

describe("documentFromHtml", () => {
  it("serialises the article HTML only when it is read, then keeps it", () => {
    const document = documentFromHtml(fixture("blog-post"), URL_);
    expect(Object.getOwnPropertyDescriptor(document, "html")?.get).toBeTypeOf("function");
    const html = document.html;
    expect(html).toContain("SQLite running in WAL mode");
    expect(Object.getOwnPropertyDescriptor(document, "html")?.value).toBe(html);
    expect({ ...document }.html).toBe(html);
    document.html = "<p>replaced</p>";
    expect(document.html).toBe("<p>replaced</p>");
  });
});
