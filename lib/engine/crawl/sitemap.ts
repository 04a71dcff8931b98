/**
 * A sitemap's entries (sitemaps.org): `<urlset>` lists pages, `<sitemapindex>` lists further sitemaps;
 * a plain-text sitemap is one URL per line. Element names may carry a namespace prefix. Broken XML reads
 * as no entries: a sitemap only seeds the crawl.
 */
import { childElements, parseXml, type XmlElement } from "@/lib/engine/fetch/documents/xml";

export interface SitemapEntries {
  pages: string[];
  sitemaps: string[];
}

const localName = (element: XmlElement) => element.name.slice(element.name.indexOf(":") + 1);

export function sitemapEntries(body: string, limit: number): SitemapEntries {
  const text = body.trim();
  if (!text.startsWith("<")) {
    const pages = text.split(/\s+/).filter((line) => URL.canParse(line));
    return { pages: pages.slice(0, limit), sitemaps: [] };
  }
  let root: XmlElement;
  try {
    root = parseXml(text, "sitemap");
  } catch {
    return { pages: [], sitemaps: [] };
  }
  const locations = childElements(root)
    .slice(0, limit)
    .flatMap((entry) => {
      const loc = childElements(entry).find((element) => localName(element) === "loc");
      const value = loc?.children
        .filter((node) => typeof node === "string")
        .join("")
        .trim();
      return value && URL.canParse(value) ? [value] : [];
    });
  return localName(root) === "sitemapindex"
    ? { pages: [], sitemaps: locations }
    : { pages: locations, sitemaps: [] };
}
