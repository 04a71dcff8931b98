/**
 * Where the sign-in page sends a user after signing in (`?callbackUrl=`): a path on this site, such as an
 * invitation link, never another site. The value is resolved as a browser resolves a redirect, against
 * the site's URL (tabs and newlines dropped, backslashes read as slashes), and only a result on the
 * site's own origin is kept; what the redirect then carries is that result's normalised path, never the
 * raw value.
 */

export const DEFAULT_LANDING = "/dashboard";

export function landingPath(callbackUrl: unknown, siteUrl: string): string {
  if (typeof callbackUrl !== "string" || callbackUrl === "" || !URL.canParse(callbackUrl, siteUrl)) {
    return DEFAULT_LANDING;
  }
  const site = new URL(siteUrl);
  const target = new URL(callbackUrl, site);
  // A path that starts with two slashes would be read as another host (`/.//evil` normalises to `//evil`).
  if (target.origin !== site.origin || target.pathname.startsWith("//")) return DEFAULT_LANDING;
  return `${target.pathname}${target.search}${target.hash}`;
}
