/**
 * HTML page → main content: Mozilla Readability on a linkedom DOM picks the article, the Markdown writer
 * turns it into Markdown. Page facts (canonical URL, dates, language) are read before Readability
 * rewrites the DOM. When Readability finds no article (short pages, listings), the body minus page
 * chrome is used.
 */
import type { FetchedDocument } from "@/lib/engine/fetch/types";
import { parseDocument } from "./dom";
import { pageLinks } from "./links";
import { htmlToMarkdown } from "./markdown";
import { clean, pageFacts } from "./page-facts";
import { readArticle } from "./readability";

const CHROME_SELECTOR =
  "script, style, noscript, template, svg, nav, header, footer, aside, form, iframe, [role=navigation], [role=banner], [role=contentinfo], [aria-hidden=true]";
/** Below this many characters Readability's pick is not trusted over the whole body. */
const MIN_ARTICLE_CHARS = 250;

/** `url` is where the HTML came from: relative links resolve against it (or the page's <base>). */
export function documentFromHtml(html: string, url: string): FetchedDocument {
  const document = parseDocument(html);
  const { base, metadata, signals } = pageFacts(document, url);
  const links = pageLinks(document, base);
  const article = readArticle(document, base, html);

  const articleNode = article?.content as Element | null | undefined;
  const articleChars = article?.textContent?.trim().length ?? 0;
  const content = articleNode && articleChars >= MIN_ARTICLE_CHARS ? articleNode : bodyWithoutChrome(html);
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

function bodyWithoutChrome(html: string): Element {
  // A fresh parse: Readability has already pruned the first DOM.
  const document = parseDocument(html);
  for (const node of Array.from(document.querySelectorAll(CHROME_SELECTOR))) node.remove();
  return document.body ?? document.documentElement;
}
