/**
 * The links of an HTML page, for the crawl engine: every `<a href>` resolved against the page's base,
 * http(s) only, without fragments, deduplicated in document order. Read before Readability prunes the
 * DOM (navigation is where a site's links are). Capped: a page of a hundred thousand links stays cheap.
 */
const MAX_LINKS = 2_000;

export function pageLinks(document: Document, base: string): string[] {
  const links = new Set<string>();
  for (const anchor of Array.from(document.querySelectorAll("a[href]"))) {
    const href = anchor.getAttribute("href")?.trim();
    if (!href || !URL.canParse(href, base)) continue;
    const url = new URL(href, base);
    if (url.protocol !== "http:" && url.protocol !== "https:") continue;
    url.hash = "";
    links.add(url.toString());
    if (links.size >= MAX_LINKS) break;
  }
  return [...links];
}
