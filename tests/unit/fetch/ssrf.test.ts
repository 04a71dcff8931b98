/**
 * SSRF guard (RELIABILITY S1–S4, P1): hostile URLs through safeFetch with an injected resolver. Every
 * one is refused with SsrfBlocked before any connection: the loopback site counts its connections and
 * undici's `beforeConnect` diagnostics channel counts dial attempts anywhere.
 */
import diagnostics from "node:diagnostics_channel";
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { redirectTarget, safeFetch } from "@/lib/http/safe-fetch";
import {
  blockedAddressReason,
  EMPTY_ALLOWLIST,
  parseAllowlist,
  type Resolver,
  SsrfBlocked,
} from "@/lib/http/ssrf";
import { fetchAllowlistFromEnv } from "@/lib/pipeline/providers/operator-providers";
import { type Site, startSite } from "./site-server";

const ARTICLE = `<html><body><article><p>${"Loopback fixture text. ".repeat(30)}</p></article></body></html>`;

let site: Site;
let dials = 0;
const onDial = () => {
  dials++;
};

beforeAll(async () => {
  diagnostics.subscribe("undici:client:beforeConnect", onDial);
  site = await startSite({
    "/": { body: ARTICLE },
    "/to-loopback": { redirect: "http://127.0.0.1/" },
    "/to-metadata": { redirect: "http://169.254.169.254/latest/meta-data/" },
    "/to-gopher": { redirect: "gopher://127.0.0.1:70/_stats" },
    "/to-file": { redirect: "file:///etc/passwd" },
    "/to-private-name": { redirect: "http://internal.test/" },
    ...Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`/hop${i}`, { redirect: `/hop${i + 1}` }])),
    "/hop7": { body: ARTICLE },
  });
});
afterAll(async () => {
  diagnostics.unsubscribe("undici:client:beforeConnect", onDial);
  await site.close();
});
afterEach(() => {
  dials = 0;
});

/** Names for hostile tests: each resolves to what an attacker would point it at. */
const ANSWERS: Record<string, string[]> = {
  "private.test": ["10.1.2.3"],
  "loopback.test": ["127.0.0.1"],
  "metadata.test": ["169.254.169.254"],
  "v6-loopback.test": ["::1"],
  "mapped.test": ["::ffff:10.0.0.1"],
  "mixed.test": ["93.184.216.34", "192.168.1.10"],
  "cgnat.test": ["100.64.1.1"],
  "ula.test": ["fd12:3456::1"],
  "internal.test": ["172.16.5.5"],
  "public.test": ["93.184.216.34"],
};
const countingResolver = () => {
  const lookups: string[] = [];
  const resolver: Resolver = async (host) => {
    lookups.push(host);
    return (ANSWERS[host] ?? ["10.9.9.9"]).map((address) => ({
      address,
      family: address.includes(":") ? 6 : 4,
    }));
  };
  return { resolver, lookups };
};

const HOSTILE_URLS = [
  // 127.0.0.1 in every spelling the URL parser accepts
  "http://127.0.0.1/",
  "http://2130706433/",
  "http://0x7f000001/",
  "http://0177.0.0.1/",
  "http://127.1/",
  "http://127.0.1/",
  "http://0x7f.0.0.1/",
  "http://017700000001/",
  "http://[::1]/",
  "http://[::ffff:127.0.0.1]/",
  "http://[::ffff:7f00:1]/",
  "http://[::127.0.0.1]/",
  "http://[::]/",
  "http://0.0.0.0/",
  "http://0/",
  // cloud metadata
  "http://169.254.169.254/latest/meta-data/",
  "http://2852039166/",
  "http://0xa9fea9fe/",
  "http://0251.0376.0251.0376/",
  "http://[::ffff:169.254.169.254]/",
  "http://[fd00:ec2::254]/",
  "http://metadata.google.internal/computeMetadata/v1/",
  "http://metadata.goog/",
  "http://168.63.129.16/",
  "http://100.100.100.200/",
  // private, CGNAT, link-local, unique-local, multicast, reserved, broadcast
  "http://10.0.0.1/",
  "http://172.16.0.1/",
  "http://172.31.255.254/",
  "http://192.168.1.1/",
  "http://100.64.0.1/",
  "http://[fc00::1]/",
  "http://[fd12:3456::1]/",
  "http://[fe80::1]/",
  "http://224.0.0.1/",
  "http://[ff02::1]/",
  "http://240.0.0.1/",
  "http://255.255.255.255/",
  "http://192.0.0.8/",
  // IPv6 forms embedding private IPv4: NAT64, 6to4, Teredo
  "http://[64:ff9b::a00:1]/",
  "http://[64:ff9b::7f00:1]/",
  "http://[2002:a00:1::]/",
  "http://[2002:7f00:1::]/",
  "http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/",
  // names
  "http://localhost/",
  "http://LOCALHOST./",
  "http://app.localhost/",
  "http://printer.local/",
  "http://intranet/",
  "http://private.test/",
  "http://loopback.test/",
  "http://metadata.test/",
  "http://v6-loopback.test/",
  "http://mapped.test/",
  "http://mixed.test/",
  "http://cgnat.test/",
  "http://ula.test/",
  // schemes, credentials, ports
  "file:///etc/passwd",
  "data:text/html,<h1>hi</h1>",
  "gopher://127.0.0.1:70/_stats",
  "ftp://public.test/",
  "javascript:alert(1)",
  "http://user:pass@public.test/",
  "http://user@public.test/",
  "http://public.test:22/",
  "http://public.test:6379/",
  "https://public.test:8443/",
  "http://public.test:0/",
];

describe("safeFetch refuses hostile targets (S1)", () => {
  it(`has a corpus of ${HOSTILE_URLS.length} URLs`, () => {
    expect(HOSTILE_URLS.length).toBeGreaterThanOrEqual(42);
  });

  it.each(HOSTILE_URLS)("refuses %s without connecting", async (url) => {
    const { resolver } = countingResolver();
    const before = site.connections();
    const error = await safeFetch(url, { policy: { allowlist: EMPTY_ALLOWLIST }, resolver }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SsrfBlocked);
    expect((error as SsrfBlocked).reason).toBe("blocked");
    expect((error as Error).message.length).toBeGreaterThan(10);
    expect(dials).toBe(0);
    expect(site.connections()).toBe(before);
  });

  it("names the reason in the message: the class of a name's address, never the address DNS answered", async () => {
    const { resolver } = countingResolver();
    const refusal = await safeFetch("http://mixed.test/", {
      policy: { allowlist: EMPTY_ALLOWLIST },
      resolver,
    }).catch((error: Error) => error);
    expect((refusal as Error).message).toBe("mixed.test resolves to a private address");
    expect((refusal as Error).message).not.toContain("192.168");
    await expect(
      safeFetch("http://[::ffff:10.0.0.1]/", { policy: { allowlist: EMPTY_ALLOWLIST } }),
    ).rejects.toThrow(/private \(as IPv4-mapped IPv6\)/);
  });

  it("classifies addresses: global unicast passes, embedded private forms do not", () => {
    expect(blockedAddressReason("93.184.216.34")).toBeUndefined();
    expect(blockedAddressReason("2606:4700::1")).toBeUndefined();
    expect(blockedAddressReason("::ffff:93.184.216.34")).toBeUndefined();
    expect(blockedAddressReason("64:ff9b::5db8:d822")).toBeUndefined();
    expect(blockedAddressReason("::ffff:192.168.0.1")).toMatch(/private/);
    expect(blockedAddressReason("2002:c0a8:1::")).toMatch(/private/);
    expect(blockedAddressReason("64:ff9b:1::1")).toMatch(/NAT64/);
  });
});

describe("DNS pinning (S2)", () => {
  it("looks a name up once per connection and dials the validated address", async () => {
    // First answer: the allowlisted loopback fixture; any later lookup would answer a private address.
    const answers = [["127.0.0.1"], ["10.0.0.1"]];
    const lookups: string[] = [];
    const resolver: Resolver = async (host) => {
      lookups.push(host);
      return (answers[lookups.length - 1] ?? ["10.0.0.1"]).map((address) => ({ address, family: 4 }));
    };
    const allowlist = parseAllowlist(["127.0.0.1/32"]);
    const before = site.connections();
    const policy = { allowlist, allowedPorts: [site.port] };
    const response = await safeFetch(`http://rebind.test:${site.port}/`, { policy, resolver });
    expect(response.status).toBe(200);
    expect(response.body.toString()).toContain("Loopback fixture text.");
    expect(lookups).toEqual(["rebind.test"]);
    expect(site.connections()).toBe(before + 1);
    expect(dials).toBe(1);
  });

  it("refuses a public-then-private rebinding answer and a mixed answer", async () => {
    const { resolver, lookups } = countingResolver();
    await expect(
      safeFetch("http://mixed.test/", { policy: { allowlist: EMPTY_ALLOWLIST }, resolver }),
    ).rejects.toBeInstanceOf(SsrfBlocked);
    expect(lookups).toEqual(["mixed.test"]);
    expect(dials).toBe(0);
  });
});

describe("redirects (S3)", () => {
  const allowlist = parseAllowlist(["127.0.0.1"]);
  const hostile = [
    ["/to-loopback", /127\.0\.0\.1|port/],
    ["/to-metadata", /linkLocal|metadata/],
    ["/to-gopher", /scheme gopher/],
    ["/to-file", /scheme file/],
    ["/to-private-name", /private/],
  ] as const;

  it.each(hostile)("re-checks the hop after %s and stops there", async (path, message) => {
    const { resolver } = countingResolver();
    // Only the loopback *fixture port* is allowlisted by address; the redirect targets port 80 or other hosts.
    const policy = { allowlist: parseAllowlist([`fixture.test`]) };
    const error = await safeFetch(`http://fixture.test:${site.port}${path}`, {
      policy,
      resolver: async (host) =>
        host === "fixture.test" ? [{ address: "127.0.0.1", family: 4 }] : resolver(host),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SsrfBlocked);
    expect((error as Error).message).toMatch(message);
    expect(dials).toBe(1);
  });

  it("follows at most 5 redirects", async () => {
    await expect(safeFetch(`${site.url}/hop0`, { policy: { allowlist } })).rejects.toThrow(
      /more than 5 redirects/,
    );
    const response = await safeFetch(`${site.url}/hop2`, { policy: { allowlist } });
    expect(response.redirects).toBe(5);
    expect(response.finalUrl).toBe(`${site.url}/hop7`);
  });

  it("refuses an https → http downgrade and non-http schemes in Location", () => {
    expect(() => redirectTarget(new URL("https://a.example/x"), "http://a.example/y")).toThrow(
      /https to http/,
    );
    expect(redirectTarget(new URL("http://a.example/x"), "https://b.example/y").toString()).toBe(
      "https://b.example/y",
    );
    expect(redirectTarget(new URL("https://a.example/x/"), "../z").toString()).toBe("https://a.example/z");
    expect(() => redirectTarget(new URL("https://a.example/"), "http://[::1")).toThrow(SsrfBlocked);
  });
});

describe("production default vs allowlist (S4)", () => {
  it("the default (empty SEARCHMUX_FETCH_ALLOWLIST) blocks the loopback fixture", async () => {
    const allowlist = fetchAllowlistFromEnv({});
    expect(allowlist.hosts.size + allowlist.ranges.length).toBe(0);
    const before = site.connections();
    await expect(safeFetch(`${site.url}/`, { policy: { allowlist } })).rejects.toBeInstanceOf(SsrfBlocked);
    expect(site.connections()).toBe(before);
  });

  it("an allowlisted loopback fixture is fetched", async () => {
    const allowlist = fetchAllowlistFromEnv({
      SEARCHMUX_FETCH_ALLOWLIST: " 127.0.0.1/32 , intranet.example ",
    });
    expect([...allowlist.hosts]).toEqual(["intranet.example"]);
    const response = await safeFetch(`${site.url}/`, { policy: { allowlist } });
    expect(response.status).toBe(200);
  });

  it("rejects malformed allowlist entries loudly", () => {
    expect(() => parseAllowlist(["10.0.0.0/33"])).toThrow(/CIDR/);
    expect(() => parseAllowlist(["exa mple"])).toThrow(/not a host name/);
  });
});

describe("property: mutated hostile URLs are never fetched (P1)", () => {
  const privateHosts = [
    "127.0.0.1",
    "10.0.0.1",
    "169.254.169.254",
    "192.168.0.1",
    "[::1]",
    "[fd00::1]",
    "0.0.0.0",
    "localhost",
  ];
  const mutate = fc.record({
    host: fc.constantFrom(...privateHosts),
    scheme: fc.constantFrom("http", "https", "HTTP", "hTTps"),
    upper: fc.boolean(),
    trailingDot: fc.boolean(),
    port: fc.constantFrom("", ":80", ":443", ":8080"),
    path: fc.webPath(),
    query: fc.option(fc.webQueryParameters(), { nil: undefined }),
    userinfo: fc.option(fc.constantFrom("a@", "a:b@"), { nil: undefined }),
  });

  it("refuses every variant without dialling (≥ 1,000 runs)", async () => {
    await fc.assert(
      fc.asyncProperty(mutate, async (m) => {
        const host = `${m.upper ? m.host.toUpperCase() : m.host}${m.trailingDot && !m.host.startsWith("[") ? "." : ""}`;
        const url = `${m.scheme}://${m.userinfo ?? ""}${host}${m.port}${m.path}${m.query ? `?${m.query}` : ""}`;
        const error = await safeFetch(url, { policy: { allowlist: EMPTY_ALLOWLIST } }).catch(
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(SsrfBlocked);
        expect(dials).toBe(0);
      }),
      { numRuns: 1_000 },
    );
  });
});
