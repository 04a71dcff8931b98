/** Domain values (include/exclude lists, `site:`) and how result hosts are compared against them. */

const HOST_LABELS = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** Second-level labels under which names are registered (example.co.uk, example.com.au). */
const SECOND_LEVEL_SUFFIXES = new Set(["co", "com", "org", "net", "ac", "gov", "edu", "ne", "or", "go"]);

/**
 * Turns what a caller may type as a domain ("Example.com", "https://www.example.com/docs",
 * "*.example.com") into a lowercase host without `www.`, port or path; null when it is not a host.
 */
export function normalizeDomain(value: string): string | null {
  const trimmed = value.trim().replace(/^\*?\./, "");
  if (trimmed === "" || /\s/.test(trimmed)) return null;
  let hostname: string;
  try {
    hostname = new URL(trimmed.includes("://") ? trimmed : `http://${trimmed}`).hostname;
  } catch {
    return null;
  }
  const host = hostname.replace(/\.$/, "").replace(/^www\./, "");
  return HOST_LABELS.test(host) && host.includes(".") ? host : null;
}

/** True when `host` is `domain` or one of its subdomains. Both without `www.`. */
function hostMatchesDomain(host: string, domain: string): boolean {
  return host === domain || (host.length > domain.length && host.endsWith(`.${domain}`));
}

export function hostMatchesAny(host: string, domains: readonly string[]): boolean {
  return domains.some((domain) => hostMatchesDomain(host, domain));
}

/**
 * The registrable part of a host, approximated without a public-suffix list: the last two labels,
 * or three under a two-letter country code with a generic second level (bbc.co.uk, abc.net.au).
 * Used only to judge result diversity, where an occasional miss is harmless.
 */
export function siteOf(host: string): string {
  const labels = host.split(".");
  if (labels.length <= 2) return host;
  const tld = labels[labels.length - 1] ?? "";
  const second = labels[labels.length - 2] ?? "";
  const keep = tld.length === 2 && SECOND_LEVEL_SUFFIXES.has(second) ? 3 : 2;
  return labels.slice(-keep).join(".");
}
