import { describe, expect, it } from "vitest";
import { foreignRequestReason } from "@/lib/api/request-guard";
import { loadConfig } from "@/lib/config";

const post = (headers: Record<string, string>, url = "http://localhost:3000/api/mcp") =>
  new Request(url, { method: "POST", headers });

/** The guard's settings as the server derives them from `env`. */
function guard(env: Record<string, string>) {
  const config = loadConfig(env);
  return { publicUrl: config.auth.url, allowedHosts: config.allowedHosts };
}

describe("foreignRequestReason", () => {
  const withPublicUrl = guard({ AUTH_URL: "https://searchmux.example" });
  const local = guard({});

  it("lets non-browser clients (no Origin) and the product's own origin through", () => {
    expect(foreignRequestReason(post({ host: "searchmux.example" }), withPublicUrl)).toBeNull();
    expect(
      foreignRequestReason(
        post({ host: "searchmux.example", origin: "https://searchmux.example" }),
        withPublicUrl,
      ),
    ).toBeNull();
  });

  it("refuses another site's Origin, an opaque Origin and a foreign Host", () => {
    expect(
      foreignRequestReason(post({ host: "searchmux.example", origin: "https://evil.test" }), withPublicUrl),
    ).toMatch(/evil\.test/);
    expect(
      foreignRequestReason(post({ host: "searchmux.example", origin: "null" }), withPublicUrl),
    ).not.toBeNull();
    expect(foreignRequestReason(post({ host: "evil.test" }), withPublicUrl)).toMatch(/evil\.test/);
    // With AUTH_URL set, the loopback names are not served unless listed.
    expect(foreignRequestReason(post({ host: "localhost:3000" }), withPublicUrl)).toMatch(/localhost/);
  });

  it("without AUTH_URL, serves the loopback names only: a rebound name is refused (DNS rebinding)", () => {
    expect(foreignRequestReason(post({ host: "localhost:3000" }), local)).toBeNull();
    expect(foreignRequestReason(post({ host: "127.0.0.1:3000" }), local)).toBeNull();
    expect(foreignRequestReason(post({ host: "[::1]:3000" }), local)).toBeNull();
    // The MCP conformance scenario `localhost-host-rebinding-rejected`: a page on evil.test whose name
    // now resolves to 127.0.0.1 sends no Origin of ours (or none at all) but its own Host.
    const rebound: Record<string, string>[] = [
      { host: "evil.test:3000" },
      { host: "evil.test:3000", origin: "http://evil.test:3000" },
    ];
    for (const headers of rebound) {
      expect(foreignRequestReason(post(headers, "http://evil.test:3000/api/mcp"), local)).toMatch(
        /requests for host 'evil\.test:3000' are not served here/,
      );
    }
  });

  it("without AUTH_URL, compares the Origin with the Host the request came in on", () => {
    expect(
      foreignRequestReason(post({ host: "localhost:3000", origin: "http://localhost:3000" }), local),
    ).toBeNull();
    expect(
      foreignRequestReason(post({ host: "localhost:3000", origin: "http://localhost:4000" }), local),
    ).not.toBeNull();
  });

  it("serves the hosts in SEARCHMUX_ALLOWED_HOSTS next to AUTH_URL's, each from its own origin", () => {
    const listed = guard({
      AUTH_URL: "https://searchmux.example",
      SEARCHMUX_ALLOWED_HOSTS: "searchmux.internal:8080",
    });
    const internal = "http://searchmux.internal:8080/api/mcp";
    expect(foreignRequestReason(post({ host: "searchmux.internal:8080" }, internal), listed)).toBeNull();
    expect(
      foreignRequestReason(
        post({ host: "searchmux.internal:8080", origin: "http://searchmux.internal:8080" }, internal),
        listed,
      ),
    ).toBeNull();
    expect(
      foreignRequestReason(
        post({ host: "searchmux.internal:8080", origin: "https://searchmux.example" }, internal),
        listed,
      ),
    ).not.toBeNull();
    expect(foreignRequestReason(post({ host: "searchmux.example" }), listed)).toBeNull();
    expect(foreignRequestReason(post({ host: "localhost:3000" }), listed)).not.toBeNull();
  });
});
