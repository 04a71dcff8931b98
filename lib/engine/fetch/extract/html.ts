/**
 * HTML page → main content: Mozilla Readability on a linkedom DOM picks the article, the Markdown writer
 * turns it into Markdown. Page facts (canonical URL, dates, language) are read before Readability
 * rewrites the DOM. When Readability finds no article (short pages, listings), the body minus page
 * chrome is used.
 *
 * The work is bounded by the page's own limits, never by what it holds: the first MAX_HTML_CHARS of the
 * HTML are read (`metadata.html_cut` says so; a DOM costs some forty times its source in memory, and a
 * server's heap is shared), elements deeper than MAX_DOM_DEPTH become their text (dom.ts), and a page of
 * more than MAX_ARTICLE_ELEMENTS elements skips Readability (whose retries run it up to four times over)
 * for the body minus chrome. A step that finds the caller's signal aborted stops there.
 */
import type { FetchedDocument } from "@/lib/engine/fetch/types";
import { parseCounted, parseDocument } from "./dom";
import { pageLinks } from "./links";
import { htmlToMarkdown } from "./markdown";
import { clean, pageFacts } from "./page-facts";
import { readArticle } from "./readability";

const CHROME_SELECTOR =
  "script, style, noscript, template, svg, nav, header, footer, aside, form, iframe, [role=navigation], [role=banner], [role=contentinfo], [aria-hidden=true]";
/** Below this many characters Readability's pick is not trusted over the whole body. */
const MIN_ARTICLE_CHARS = 250;
/** Characters of HTML read: a long forum thread or live blog of 2 MiB converts in about a second. */
export const MAX_HTML_CHARS = 2 * 1024 * 1024;
/** Elements Readability is run on: a real page of MAX_HTML_CHARS has about 55,000. */
const MAX_ARTICLE_ELEMENTS = 60_000;

/** What extraction reads of a page: its first MAX_HTML_CHARS, and how much was left out. */
export interface ReadablePart {
  html: string;
  cut?: { kept_chars: number; total_chars: number };
}

/** `url` is where the HTML came from: relative links resolve against it (or the page's <base>). */
export function documentFromHtml(page: string, url: string, signal?: AbortSignal): FetchedDocument {
  return documentFromReadablePart(readablePart(page), url, signal);
}

export function documentFromReadablePart(
  { html, cut }: ReadablePart,
  url: string,
  signal?: AbortSignal,
): FetchedDocument {
  const { document, elements } = parseCounted(html);
  signal?.throwIfAborted();
  const { base, metadata, signals } = pageFacts(document, url);
  const links = pageLinks(document, base);
  const article = elements <= MAX_ARTICLE_ELEMENTS ? readArticle(document, base, html) : null;
  signal?.throwIfAborted();

  const articleNode = article?.content as Element | null | undefined;
  const articleChars = article?.textContent?.trim().length ?? 0;
  const content =
    articleNode && articleChars >= MIN_ARTICLE_CHARS
      ? articleNode
      : // Readability pruned the DOM it ran on; one it was not run on is still whole.
        bodyWithoutChrome(elements <= MAX_ARTICLE_ELEMENTS ? parseDocument(html) : document);
  if (cut) metadata.html_cut = cut;
  const title = clean(article?.title) ?? metadata.title;
  if (article?.byline) metadata.byline = clean(article.byline);
  if (!metadata.published && article?.publishedTime) metadata.published = article.publishedTime;
  if (!metadata.site_name && article?.siteName) metadata.site_name = clean(article.siteName);
  if (!metadata.description && article?.excerpt) metadata.description = clean(article.excerpt)?.slice(0, 300);
  if (title) metadata.title = title;

  const document_: FetchedDocument = {
    markdown: withTitle(htmlToMarkdown(content, base), title),
    metadata,
    signals,
    links,
  };
  if (title) document_.title = title;
  return withLazyHtml(document_, content);
}

/**
 * `html` is only read for format=html; serialising a large article for every Markdown request cost
 * milliseconds and a page-sized string. It is computed on first read and then kept.
 */
function withLazyHtml(document: FetchedDocument, content: Element): FetchedDocument {
  const settle = (html: string | undefined) => {
    Object.defineProperty(document, "html", {
      value: html,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  };
  Object.defineProperty(document, "html", {
    enumerable: true,
    configurable: true,
    get() {
      const html = content.outerHTML;
      settle(html);
      return html;
    },
    set: settle,
  });
  return document;
}

/** Readability drops the headline it took as the title; agents read better with it on top. */
function withTitle(markdown: string, title: string | undefined): string {
  return title === undefined || markdown.startsWith("# ") ? markdown : `# ${title}\n\n${markdown}`;
}

function bodyWithoutChrome(document: Document): Element {
  for (const node of Array.from(document.querySelectorAll(CHROME_SELECTOR))) node.remove();
  return document.body ?? document.documentElement;
}

/**
 * The first MAX_HTML_CHARS of `html`, ending before the tag the cap falls in (the parser closes what is
 * open), and how much was left out.
 */
export function readablePart(html: string): ReadablePart {
  if (html.length <= MAX_HTML_CHARS) return { html };
  const tagStart = html.lastIndexOf("<", MAX_HTML_CHARS);
  const end = tagStart > 0 ? tagStart : MAX_HTML_CHARS;
  return { html: html.slice(0, end), cut: { kept_chars: end, total_chars: html.length } };
}
