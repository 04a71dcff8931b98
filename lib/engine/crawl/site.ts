/**
 * Which links a crawl follows. Same site = the start page's host and port, with a leading `www.` ignored
 * (example.com and www.example.com are one site; docs.example.com is another) and http/https alike; a
 * start page that redirects makes its final host part of the site too. A URL is visited once whatever its
 * scheme, `www.` or fragment. Links to files that are not pages (images, media, archives, styles,
 * scripts) are not fetched.
 */

const NOT_PAGES =
  /\.(png|jpe?g|gif|webp|avif|svg|ico|bmp|tiff?|mp[34]|m4[av]|webm|mov|avi|wav|ogg|flac|zip|gz|tgz|bz2|xz|7z|rar|tar|dmg|exe|msi|apk|iso|bin|css|js|mjs|woff2?|ttf|otf|eot)$/i;

/** The site a URL belongs to: lowercased host (URL already drops default ports), without `www.`. */
export function siteOf(url: URL): string {
  return url.host.replace(/^www\./, "");
}

/** What makes two URLs the same page for the crawl: site, path and query. */
export function visitKey(url: URL): string {
  return `${siteOf(url)}${url.pathname}${url.search}`;
}

export function isPageLink(url: URL): boolean {
  return !NOT_PAGES.test(url.pathname);
}

/** Globs on the URL path: `*` matches any run of characters, everything else itself. */
export function pathMatcher(
  patterns: readonly string[] | undefined,
): ((path: string) => boolean) | undefined {
  if (patterns === undefined || patterns.length === 0) return undefined;
  const expressions = patterns.map(
    (pattern) =>
      new RegExp(
        `^${pattern
          .split("*")
          .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
          .join(".*")}$`,
      ),
  );
  return (path) => expressions.some((expression) => expression.test(path));
}
