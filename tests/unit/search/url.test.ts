import { describe, expect, it } from "vitest";
import { normalizeUrl, parseResultUrl } from "@/lib/engine/search/url";

/** [a, b, why]: pairs that must normalise to the same key. */
const EQUIVALENT: Array<[string, string, string]> = [
  ["HTTPS://Example.COM/a", "https://example.com/a", "scheme and host case"],
  ["http://example.com/a", "https://example.com/a", "http and https are one"],
  ["https://www.example.com/a", "https://example.com/a", "www. dropped"],
  ["https://example.com:443/a", "https://example.com/a", "default https port"],
  ["http://example.com:80/a", "https://example.com/a", "default http port"],
  ["https://example.com/a#section", "https://example.com/a", "fragment"],
  ["https://example.com/a/", "https://example.com/a", "trailing slash"],
  ["https://example.com/a//", "https://example.com/a", "several trailing slashes"],
  ["https://example.com", "https://example.com/", "empty path is root"],
  ["https://example.com/a?utm_source=x&utm_medium=y&utm_campaign=z", "https://example.com/a", "utm_*"],
  ["https://example.com/a?gclid=1&fbclid=2&msclkid=3", "https://example.com/a", "ad click ids"],
  ["https://example.com/a?mc_cid=1&mc_eid=2", "https://example.com/a", "mailchimp mc_*"],
  ["https://example.com/a?ref=hn&ref_src=twsrc", "https://example.com/a", "ref, ref_src"],
  ["https://example.com/a?igshid=1&yclid=2&_hsenc=3&_hsmi=4", "https://example.com/a", "more trackers"],
  ["https://example.com/a?UTM_Source=x", "https://example.com/a", "tracker names any case"],
  ["https://example.com/a?b=2&a=1", "https://example.com/a?a=1&b=2", "parameters sorted"],
  [
    "https://example.com/a?a=1&utm_source=x&b=2",
    "https://example.com/a?b=2&a=1",
    "trackers removed between params",
  ],
  ["https://example.com/a?", "https://example.com/a", "empty query"],
  ["https://example.com/a?&&a=1&", "https://example.com/a?a=1", "empty pairs"],
  ["https://example.com/caf%c3%a9", "https://example.com/café", "percent-encoding case and raw UTF-8"],
  ["https://example.com/%7Euser/%41", "https://example.com/~user/A", "escaped unreserved characters decoded"],
  ["https://example.com/a?q=hello%20world", "https://example.com/a?q=hello+world", "space in query"],
  ["https://example.com/a?q=%e2%82%ac", "https://example.com/a?q=€", "query escapes"],
  ["https://bücher.example/x", "https://xn--bcher-kva.example/x", "IDN host in punycode"],
  ["https://example.com./a", "https://example.com/a", "trailing dot in host"],
  ["https://user:pw@example.com/a", "https://example.com/a", "credentials dropped"],
  ["https://example.com/a/b/../c", "https://example.com/a/c", "dot segments"],
  ["  https://example.com/a  ", "https://example.com/a", "surrounding whitespace"],
];

/** [a, b, why]: pairs that must stay distinct. */
const DISTINCT: Array<[string, string, string]> = [
  ["https://example.com/A", "https://example.com/a", "path is case-sensitive"],
  ["https://blog.example.com/a", "https://example.com/a", "subdomain"],
  ["https://example.com:8443/a", "https://example.com/a", "non-default port"],
  ["https://example.com/a?id=1", "https://example.com/a?id=2", "content parameter value"],
  ["https://example.com/a?id=1", "https://example.com/a", "content parameter present"],
  ["https://example.com/a?x=1&x=2", "https://example.com/a?x=2&x=1", "repeated parameter order"],
  ["https://example.com/a%2Fb", "https://example.com/a/b", "encoded slash is not a separator"],
  ["https://example.com/a", "https://example.org/a", "different TLD"],
  ["https://example.com/a/b", "https://example.com/a", "different path depth"],
  ["https://www2.example.com/a", "https://example.com/a", "only www. is dropped"],
  ["https://example.com/a?reference=1", "https://example.com/a", "ref is matched as a whole name"],
];

describe("normalizeUrl", () => {
  it.each(EQUIVALENT)("%s ≡ %s (%s)", (a, b) => {
    const key = normalizeUrl(a);
    expect(key).not.toBeNull();
    expect(key).toBe(normalizeUrl(b));
  });

  it.each(DISTINCT)("%s ≢ %s (%s)", (a, b) => {
    expect(normalizeUrl(a)).not.toBeNull();
    expect(normalizeUrl(a)).not.toBe(normalizeUrl(b));
  });

  it("produces an https key without www., fragment or trackers", () => {
    expect(normalizeUrl("http://WWW.Example.com:80/Docs/?utm_source=x&b=2&a=1#top")).toBe(
      "https://example.com/Docs?a=1&b=2",
    );
  });

  it.each([
    "ftp://example.com/a",
    "mailto:a@example.com",
    "javascript:alert(1)",
    "not a url",
    "",
    "https://",
    "/relative",
  ])("rejects %j", (url) => {
    expect(normalizeUrl(url)).toBeNull();
  });

  it("is idempotent", () => {
    for (const [a] of [...EQUIVALENT, ...DISTINCT]) {
      const key = normalizeUrl(a);
      expect(key).not.toBeNull();
      expect(normalizeUrl(key ?? "")).toBe(key);
    }
  });
});

describe("parseResultUrl", () => {
  it("keeps the URL as given for display, minus credentials, fragment and trackers", () => {
    expect(parseResultUrl("http://user:pw@WWW.Example.com:8080/Docs/?utm_source=x&b=2&a=1#top")).toEqual({
      key: "https://example.com:8080/Docs?a=1&b=2",
      host: "example.com",
      link: "http://www.example.com:8080/Docs/?a=1&b=2",
    });
  });
});
