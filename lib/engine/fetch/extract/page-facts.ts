/**
 * Page facts read before Readability rewrites the DOM: metadata (title, canonical URL, dates, language,
 * site name, description, author), the <base> URL and the signals the content checks need. One walk
 * over the document collects every element they come from; each selector used to walk it again.
 */
import type { HtmlSignals, PageMetadata } from "@/lib/engine/fetch/types";

/** Every element a fact comes from, in document order. */
const SOURCES = "meta, link, title, time, base, script, [id], [data-reactroot], app-root";
/** The SPA mount points whose emptiness marks a JavaScript-only shell. */
const APP_ROOT_IDS = new Set(["root", "app", "__next", "__nuxt"]);

export interface PageFacts {
  /** The base for relative links: the page's <base href> when valid, else its URL. */
  base: string;
  metadata: PageMetadata;
  signals: HtmlSignals;
}

interface Sources {
  /** First `content` per `attribute=value` key (property, name, itemprop, http-equiv lower-cased). */
  meta: Map<string, string | null>;
  title?: Element;
  canonical?: Element;
  time?: Element;
  base?: Element;
  appRoot?: Element;
  scripts: number;
}

export function pageFacts(document: Document, url: string): PageFacts {
  const sources = collect(document);
  const href = sources.base?.getAttribute("href");
  const base = href && URL.canParse(href, url) ? new URL(href, url).toString() : url;
  return {
    base,
    metadata: metadataOf(document, sources, base),
    signals: {
      scripts: sources.scripts,
      emptyAppRoot: sources.appRoot !== undefined && (sources.appRoot.textContent ?? "").trim() === "",
    },
  };
}

function collect(document: Document): Sources {
  const sources: Sources = { meta: new Map(), scripts: 0 };
  for (const element of document.querySelectorAll(SOURCES)) {
    switch (element.localName) {
      case "meta":
        for (const attribute of ["property", "name", "itemprop"]) remember(sources, element, attribute);
        remember(sources, element, "http-equiv", true);
        break;
      case "link":
        if (sources.canonical === undefined && element.getAttribute("rel")?.toLowerCase() === "canonical")
          sources.canonical = element;
        break;
      case "title":
        sources.title ??= element;
        break;
      case "time":
        if (sources.time === undefined && element.hasAttribute("datetime")) sources.time = element;
        break;
      case "base":
        if (sources.base === undefined && element.hasAttribute("href")) sources.base = element;
        break;
      case "script":
        sources.scripts++;
        break;
    }
    if (sources.appRoot === undefined && isAppRoot(element)) sources.appRoot = element;
  }
  return sources;
}

/** As `meta[attribute="value"]` matches: values compare exactly, http-equiv's case-insensitively. */
function remember(sources: Sources, meta: Element, attribute: string, ignoreCase = false): void {
  const value = meta.getAttribute(attribute);
  if (value === null) return;
  const key = `${attribute}=${ignoreCase ? value.toLowerCase() : value}`;
  if (!sources.meta.has(key)) sources.meta.set(key, meta.getAttribute("content"));
}

function isAppRoot(element: Element): boolean {
  return (
    APP_ROOT_IDS.has(element.id) || element.hasAttribute("data-reactroot") || element.localName === "app-root"
  );
}

function metadataOf(document: Document, sources: Sources, base: string): PageMetadata {
  const meta = (key: string) => clean(sources.meta.get(key));
  const metadata: PageMetadata = {};
  const title = meta("property=og:title") ?? clean(sources.title?.textContent);
  if (title) metadata.title = title;
  const canonical = sources.canonical?.getAttribute("href");
  if (canonical && URL.canParse(canonical, base))
    metadata.canonical_url = new URL(canonical, base).toString();
  const published =
    meta("property=article:published_time") ??
    meta("name=date") ??
    meta("name=publish-date") ??
    meta("itemprop=datePublished") ??
    clean(sources.time?.getAttribute("datetime"));
  if (published) metadata.published = published;
  const language =
    clean(document.documentElement?.getAttribute("lang")) ?? meta("http-equiv=content-language");
  if (language) metadata.language = language;
  const siteName = meta("property=og:site_name");
  if (siteName) metadata.site_name = siteName;
  const description = meta("name=description") ?? meta("property=og:description");
  if (description) metadata.description = description;
  const author = meta("name=author");
  if (author) metadata.byline = author;
  return metadata;
}

export function clean(value: string | null | undefined): string | undefined {
  const text = value?.replace(/\s+/g, " ").trim();
  return text ? text : undefined;
}
