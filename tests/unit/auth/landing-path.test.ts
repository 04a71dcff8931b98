import { describe, expect, it } from "vitest";
import { DEFAULT_LANDING, landingPath } from "@/lib/auth/landing-path";

const SITE = "https://searchmux.example";

/** Where a browser on the sign-in page goes when it follows a redirect to `location`. */
const followed = (location: string) => new URL(location, `${SITE}/signin`);

describe("landingPath", () => {
  it.each([
    ["/dashboard/keys", "/dashboard/keys"],
    ["/invite/abc123", "/invite/abc123"],
    ["/dashboard?tab=team#members", "/dashboard?tab=team#members"],
    [`${SITE}/invite/abc123`, "/invite/abc123"],
    ["/a/../dashboard", "/dashboard"],
    // Encoded slashes stay encoded: a path segment on this site, not a second slash.
    ["/%2F%2Fevil.example", "/%2F%2Fevil.example"],
    ["%2F%2Fevil.example", "/%2F%2Fevil.example"],
    // The site's own scheme without slashes is a relative reference (WHATWG URL), here as everywhere.
    ["https:evil.example", "/evil.example"],
  ])("keeps %j on the site as %j", (value, path) => {
    expect(landingPath(value, SITE)).toBe(path);
  });

  it.each([
    "/\t/evil.example",
    "/\n/evil.example",
    "/\r\n/evil.example",
    "\t//evil.example",
    "/\\evil.example",
    "/\\/evil.example",
    "\\\\evil.example",
    "\\/evil.example",
    "//evil.example",
    "///evil.example",
    " //evil.example",
    "/.//evil.example",
    "/..//evil.example",
    "https://evil.example",
    "HTTPS://evil.example/dashboard",
    "https://searchmux.example.evil.example/",
    "https://searchmux.example@evil.example/",
    "http://searchmux.example/dashboard",
    "javascript:alert(document.domain)",
    "JaVaScRiPt:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "",
    "http://[::1",
  ])("sends %j to the default landing instead", (value) => {
    expect(landingPath(value, SITE)).toBe(DEFAULT_LANDING);
  });

  it("ignores a missing or repeated callbackUrl", () => {
    expect(landingPath(undefined, SITE)).toBe(DEFAULT_LANDING);
    expect(landingPath(["/dashboard/keys", "//evil.example"], SITE)).toBe(DEFAULT_LANDING);
  });

  it("never yields a redirect a browser would follow off the site", () => {
    const hostile = [
      "/\t/evil.example",
      "/\\evil.example",
      "/.//evil.example",
      "%09//evil.example",
      "/%09/evil",
    ];
    for (const value of hostile) {
      expect(followed(landingPath(value, SITE)).origin).toBe(SITE);
    }
  });
});
