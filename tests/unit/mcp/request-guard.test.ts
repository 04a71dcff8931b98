import { describe, expect, it } from "vitest";
import { foreignRequestReason } from "@/lib/mcp/request-guard";

const post = (headers: Record<string, string>, url = "http://localhost:3000/api/mcp") =>
  new Request(url, { method: "POST", headers });

describe("foreignRequestReason", () => {
  const publicUrl = "https://searchmux.example";

  it("lets non-browser clients (no Origin) and the product's own origin through", () => {
    expect(foreignRequestReason(post({ host: "searchmux.example" }), publicUrl)).toBeNull();
    expect(
      foreignRequestReason(
        post({ host: "searchmux.example", origin: "https://searchmux.example" }),
        publicUrl,
      ),
    ).toBeNull();
  });

  it("refuses another site's Origin, an opaque Origin and a foreign Host", () => {
    expect(
      foreignRequestReason(post({ host: "searchmux.example", origin: "https://evil.test" }), publicUrl),
    ).toMatch(/evil\.test/);
    expect(
      foreignRequestReason(post({ host: "searchmux.example", origin: "null" }), publicUrl),
    ).not.toBeNull();
    expect(foreignRequestReason(post({ host: "evil.test" }), publicUrl)).toMatch(/evil\.test/);
  });

  it("without AUTH_URL, compares the Origin with the Host the request came in on", () => {
    expect(
      foreignRequestReason(post({ host: "localhost:3000", origin: "http://localhost:3000" }), undefined),
    ).toBeNull();
    expect(foreignRequestReason(post({ host: "localhost:3000" }), undefined)).toBeNull();
    expect(
      foreignRequestReason(post({ host: "localhost:3000", origin: "http://localhost:4000" }), undefined),
    ).not.toBeNull();
  });
});
