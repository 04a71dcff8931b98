import { describe, expect, it } from "vitest";
import { foreignHostReason } from "@/lib/api/allowed-host";
import { allowedHosts, LOOPBACK_HOSTS, loadConfig } from "@/lib/config";

const allowed = (env: Record<string, string>) => loadConfig(env).allowedHosts;

describe("allowedHosts (config)", () => {
  it("defaults to the loopback names on any port when neither AUTH_URL nor SEARCHMUX_ALLOWED_HOSTS is set", () => {
    expect(allowed({})).toEqual(LOOPBACK_HOSTS);
    expect(allowed({ SEARCHMUX_ALLOWED_HOSTS: " , " })).toEqual(LOOPBACK_HOSTS);
  });

  it("takes AUTH_URL's host (its port only when it names one) and the listed hosts, lower-cased", () => {
    expect(allowed({ AUTH_URL: "https://Searchmux.Example/app" })).toEqual([{ name: "searchmux.example" }]);
    expect(allowed({ AUTH_URL: "http://127.0.0.1:4100" })).toEqual([{ name: "127.0.0.1", port: "4100" }]);
    expect(
      allowed({
        AUTH_URL: "https://searchmux.example",
        SEARCHMUX_ALLOWED_HOSTS: "searchmux.internal:8080, MCP.Example ,[::1]",
      }),
    ).toEqual([
      { name: "searchmux.example" },
      { name: "searchmux.internal", port: "8080" },
      { name: "mcp.example" },
      { name: "[::1]" },
    ]);
  });

  it.each([
    "https://searchmux.example",
    "searchmux.example/path",
    "user@searchmux.example",
    "searchmux.example:0",
    "searchmux.example:99999",
    "searchmux.example:",
    "::1",
  ])("refuses to start with %j in SEARCHMUX_ALLOWED_HOSTS, naming it", (entry) => {
    expect(() => allowedHosts({ SEARCHMUX_ALLOWED_HOSTS: `ok.example,${entry}` })).toThrow(
      `SEARCHMUX_ALLOWED_HOSTS must list host or host:port entries, not "${entry}"`,
    );
  });

  it("refuses to start with an AUTH_URL that is not an absolute URL", () => {
    expect(() => loadConfig({ AUTH_URL: "searchmux.example" })).toThrow(/AUTH_URL must be an absolute URL/);
  });
});

describe("foreignHostReason", () => {
  it("lets the loopback names through on any port, and nothing else by default", () => {
    for (const host of ["localhost", "localhost:3000", "LOCALHOST:3000", "127.0.0.1:4100", "[::1]:3000"]) {
      expect(foreignHostReason(host, LOOPBACK_HOSTS)).toBeNull();
    }
    for (const host of [
      "evil.example",
      "evil.example:3000",
      "localhost.evil.example:3000",
      "127.0.0.1.nip.io:3000",
      "192.168.1.20:3000",
      "[::2]:3000",
      "localhost@evil.example",
      "localhost:3000/path",
      "localhost#.evil.example",
      "",
    ]) {
      expect(foreignHostReason(host, LOOPBACK_HOSTS)).toContain(`requests for host '${host}'`);
    }
    expect(foreignHostReason(null, LOOPBACK_HOSTS)).toMatch(/requests for host ''/);
  });

  it("holds a listed port to that port and says how to allow another host", () => {
    const hosts = allowed({ SEARCHMUX_ALLOWED_HOSTS: "searchmux.internal:8080,mcp.example" });
    expect(foreignHostReason("searchmux.internal:8080", hosts)).toBeNull();
    expect(foreignHostReason("mcp.example:9999", hosts)).toBeNull();
    expect(foreignHostReason("searchmux.internal:8081", hosts)).toMatch(
      /SEARCHMUX_ALLOWED_HOSTS or set AUTH_URL/,
    );
    expect(foreignHostReason("searchmux.internal", hosts)).not.toBeNull();
    expect(foreignHostReason("localhost:3000", hosts)).not.toBeNull();
  });
});
