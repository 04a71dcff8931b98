import { describe, expect, it } from "vitest";
import { clientAddress } from "@/lib/api/client-address";
import { loadConfig } from "@/lib/config";

const forwarded = (value: string) => new Headers({ "x-forwarded-for": value });

describe("clientAddress", () => {
  it("believes nothing in X-Forwarded-For without SEARCHMUX_TRUSTED_PROXIES", () => {
    for (const value of ["203.0.113.7", "203.0.113.7, 198.51.100.1", "unknown"]) {
      expect(clientAddress(forwarded(value), {})).toBeNull();
      expect(clientAddress(forwarded(value), { SEARCHMUX_TRUSTED_PROXIES: "0" })).toBeNull();
    }
  });

  it("with a number of hops, takes the entry that many from the right, whatever the client wrote left of it", () => {
    const one = { SEARCHMUX_TRUSTED_PROXIES: "1" };
    expect(clientAddress(forwarded("198.51.100.9"), one)).toBe("198.51.100.9");
    expect(clientAddress(forwarded("1.2.3.4, 5.6.7.8, 198.51.100.9"), one)).toBe("198.51.100.9");
    const two = { SEARCHMUX_TRUSTED_PROXIES: "2" };
    expect(clientAddress(forwarded("1.2.3.4, 198.51.100.9, 10.0.0.2"), two)).toBe("198.51.100.9");
    // Fewer entries than proxies: the request did not come through them, so nothing is believed.
    expect(clientAddress(forwarded("198.51.100.9"), two)).toBeNull();
    expect(clientAddress(new Headers(), one)).toBeNull();
    expect(clientAddress(forwarded("1.2.3.4, not-an-address"), one)).toBeNull();
  });

  it("with proxy addresses and CIDRs, takes the rightmost entry that is not one of them", () => {
    const env = { SEARCHMUX_TRUSTED_PROXIES: "10.0.0.0/8, 2001:db8:ffff::1" };
    expect(clientAddress(forwarded("6.6.6.6, 198.51.100.9, 10.1.2.3"), env)).toBe("198.51.100.9");
    expect(clientAddress(forwarded("198.51.100.9, 10.1.2.3, 2001:db8:ffff::1"), env)).toBe("198.51.100.9");
    expect(clientAddress(forwarded("10.9.9.9, ::ffff:10.1.2.3"), env)).toBe("10.9.9.9");
    expect(clientAddress(forwarded("forged, 10.1.2.3"), env)).toBeNull();
  });

  it("keys IPv6 clients by their /64 and IPv4-mapped ones as IPv4", () => {
    const one = { SEARCHMUX_TRUSTED_PROXIES: "1" };
    expect(clientAddress(forwarded("2001:db8:1:2:aaaa::1"), one)).toBe("2001:db8:1:2::/64");
    expect(clientAddress(forwarded("2001:db8:1:2:bbbb::9"), one)).toBe("2001:db8:1:2::/64");
    expect(clientAddress(forwarded("::ffff:198.51.100.9"), one)).toBe("198.51.100.9");
  });

  it("trusts Vercel's edge by default on Vercel, which overwrites X-Forwarded-For", () => {
    expect(clientAddress(forwarded("198.51.100.9"), { VERCEL: "1" })).toBe("198.51.100.9");
    expect(
      clientAddress(forwarded("198.51.100.9"), { VERCEL: "1", SEARCHMUX_TRUSTED_PROXIES: "0" }),
    ).toBeNull();
  });

  it("refuses a malformed setting when the configuration is loaded", () => {
    for (const bad of ["-1", "10.0.0.0/33", "proxy.internal", "10.0.0.1/8/2", "1.5"]) {
      expect(() => loadConfig({ SEARCHMUX_TRUSTED_PROXIES: bad })).toThrow(/SEARCHMUX_TRUSTED_PROXIES/);
    }
    expect(loadConfig({ SEARCHMUX_TRUSTED_PROXIES: "3" }).trustedProxies).toEqual({ kind: "hops", count: 3 });
  });
});
