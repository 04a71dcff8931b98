/**
 * The security headers (security L2), as Next.js puts them together for a request: next.config.ts's
 * headers for its path, plus proxy.ts's when its matcher takes the request (Next.js's own test helpers
 * evaluate both). Pages: a nonce-based policy, a fresh nonce handed on to the render, never framed; route
 * handlers: nosniff and a policy that loads, runs and frames nothing.
 */

import {
  unstable_doesMiddlewareMatch,
  unstable_getResponseFromNextConfig,
} from "next/experimental/testing/server";
import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { NONCE_HEADER, pagePolicy } from "@/lib/content-security-policy";
import nextConfig from "@/next.config";
import { proxy, config as proxyConfig } from "@/proxy";

interface Answer {
  /** The response headers of the request; a header set twice reads as both values joined by ", ". */
  headers: Headers;
  /** The request headers the proxy hands on to the render, if it ran. */
  forwarded: Headers;
}

async function answer(path: string, requestHeaders: Record<string, string> = {}): Promise<Answer> {
  const url = `http://localhost:3000${path}`;
  const headers = new Headers(
    (await unstable_getResponseFromNextConfig({ url, nextConfig, headers: requestHeaders })).headers,
  );
  const forwarded = new Headers();
  if (unstable_doesMiddlewareMatch({ config: proxyConfig, url, headers: requestHeaders, nextConfig })) {
    for (const [name, value] of proxy(new NextRequest(url, { headers: requestHeaders })).headers) {
      const passedOn = name.match(/^x-middleware-request-(.+)$/)?.[1];
      if (passedOn) forwarded.set(passedOn, value);
      else if (!name.startsWith("x-middleware-")) headers.append(name, value);
    }
  }
  return { headers, forwarded };
}

const PAGES = [
  "/",
  "/signin",
  "/docs/api",
  "/dashboard",
  "/dashboard/keys",
  "/dashboard/team",
  "/dashboard/connect",
  "/dashboard/settings",
  "/dashboard/budgets",
  "/dashboard/traces",
  "/dashboard/traces/0b6f7a4e-3c1d-4e7b-9a55-2f0c8d1e6a90",
  "/dashboard/playground",
  "/dashboard/admin",
  "/invite/some-secret",
  "/oauth/consent",
  "/no-such-page",
];

const ROUTES = [
  "/api/health",
  "/api/mcp",
  "/api/v1/search",
  "/api/openapi.json",
  "/api/oauth/token",
  "/api",
  "/.well-known/oauth-authorization-server",
  "/.well-known/oauth-protected-resource/api/mcp",
];

describe("security headers", () => {
  it.each(PAGES)("page %s: a nonce-based policy, handed on to the render; never framed", async (path) => {
    const { headers, forwarded } = await answer(path);
    const nonce = forwarded.get(NONCE_HEADER) ?? "";
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    const policy = pagePolicy(nonce, { development: false });
    expect(headers.get("content-security-policy")).toBe(policy);
    expect(forwarded.get("content-security-policy")).toBe(policy);
    expect(policy).toContain(`script-src 'self' 'nonce-${nonce}' 'strict-dynamic';`);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(headers.get("x-frame-options")).toBe("DENY");
    expect(headers.get("x-content-type-options")).toBe("nosniff");
    expect(headers.get("referrer-policy")).toBe(
      path.startsWith("/oauth/") ? "no-referrer" : "strict-origin-when-cross-origin",
    );
  });

  it("every page request gets a nonce of its own", async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 20; i++) nonces.add((await answer("/dashboard")).forwarded.get(NONCE_HEADER) ?? "");
    expect(nonces.size).toBe(20);
  });

  it("a nonce the client sends is replaced", async () => {
    const { forwarded } = await answer("/dashboard", { [NONCE_HEADER]: "chosen-by-the-client" });
    expect(forwarded.get(NONCE_HEADER)).not.toBe("chosen-by-the-client");
  });

  it.each(ROUTES)("route %s: nosniff, and a policy that loads, runs and frames nothing", async (path) => {
    const { headers, forwarded } = await answer(path);
    expect([...forwarded.keys()]).toEqual([]);
    expect(headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(headers.get("x-frame-options")).toBe("DENY");
    expect(headers.get("x-content-type-options")).toBe("nosniff");
    expect(headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
  });

  it("next-auth's own pages keep their inline stylesheet, and are not framed either", async () => {
    const { headers } = await answer("/api/auth/signout");
    expect(headers.get("content-security-policy")).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    );
    expect(headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("the framework's files and prefetches are not documents: static headers, no proxy", async () => {
    for (const [path, requestHeaders] of [
      ["/_next/static/chunks/main.js", {}],
      ["/dashboard/keys", { "next-router-prefetch": "1" }],
    ] as const) {
      const { headers, forwarded } = await answer(path, requestHeaders);
      expect([...forwarded.keys()], path).toEqual([]);
      expect(headers.get("content-security-policy"), path).toBeNull();
      expect(headers.get("x-content-type-options"), path).toBe("nosniff");
    }
  });

  it("development allows eval for React's error stacks, production does not", () => {
    expect(pagePolicy("n", { development: true })).toContain("'strict-dynamic' 'unsafe-eval';");
    expect(pagePolicy("n", { development: false })).not.toContain("unsafe-eval");
  });
});
