/** The provider HTTP client on its own: pooling, caps, decoding, status and error mapping, redaction. */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ProviderError } from "@/lib/engine/shared/errors";
import { buildUrl, parseResponse, parseRetryAfter, request, requestJson } from "@/lib/http/provider-client";
import { rateLimitHint } from "@/lib/http/rate-limit-headers";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";

let fake: FakeProviders;
let echo: http.Server;
let echoUrl: string;

beforeAll(async () => {
  fake = await startFakeProviders();
  // Answers 400 with an error body that echoes the credentials it received, like some APIs do.
  echo = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    res.writeHead(Number(url.searchParams.get("status") ?? 400), { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        error: `bad request for ${req.headers.authorization} ${url.searchParams.get("api_key")}`,
      }),
    );
  });
  await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
  echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
});
afterAll(async () => {
  echo.closeAllConnections();
  await new Promise<void>((resolve) => echo.close(() => resolve()));
  await fake.close();
});
beforeEach(() => {
  fake.resetScenarios();
  fake.clearRequests();
});

const braveUrl = () => buildUrl(fake.baseUrlFor("brave"), "/res/v1/web/search", { q: "x" });
const signal = () => AbortSignal.timeout(5_000);

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe("provider HTTP client", () => {
  it("reuses one keep-alive connection for sequential calls", async () => {
    await requestJson(braveUrl(), { signal: signal() });
    // undici hands the socket back to the pool just after the body ends.
    await new Promise((resolve) => setTimeout(resolve, 10));
    await requestJson(braveUrl(), { signal: signal() });
    const [first, second] = fake.requests("brave");
    expect(first?.connection).toBeDefined();
    expect(second?.connection).toBe(first?.connection);
  });

  it("returns status, byte count and decoded JSON", async () => {
    const response = await requestJson(braveUrl(), { signal: signal() });
    expect(response.status).toBe(200);
    expect(response.bytes).toBe(Buffer.byteLength(JSON.stringify(response.json)));
    expect(response.json).toMatchObject({ web: { results: expect.any(Array) } });
  });

  it("stops reading at maxBytes", async () => {
    const error = await failure(request(braveUrl(), { signal: signal(), maxBytes: 100 }));
    expect(error.reason).toBe("too_large");
  });

  it("times out on a body that drips one byte per second", async () => {
    fake.setScenario("brave", { fault: "slowDrip" });
    const error = await failure(request(braveUrl(), { signal: AbortSignal.timeout(300) }));
    expect(error.reason).toBe("timeout");
  });

  it("maps a refused connection to network_error", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const error = await failure(request(`http://127.0.0.1:${port}/`, { signal: signal() }));
    expect(error.reason).toBe("network_error");
  });

  it("names HTML served instead of JSON in the error", async () => {
    fake.setScenario("brave", { fault: "html" });
    const error = await failure(requestJson(braveUrl(), { signal: signal() }));
    expect(error).toMatchObject({ reason: "invalid_response", status: 200 });
    expect(error.message).toContain("HTML page where JSON was expected");
  });

  it("keeps keys out of error messages even when the provider echoes them", async () => {
    const key = "sk-live-abcdef123456";
    const error = await failure(
      request(`${echoUrl}/?api_key=${key}&status=400`, {
        headers: { authorization: `Bearer ${key}` },
        signal: signal(),
      }),
    );
    expect(error).toMatchObject({ reason: "invalid_request", status: 400 });
    expect(error.message).toContain("[redacted]");
    expect(error.message).not.toContain(key);
    expect(error.message).not.toContain("api_key=");
  });

  it("treats 401 and 403 as bad_key only when the request carried a key", async () => {
    const keyed = { headers: { "x-api-key": "key-123456" }, signal: signal() };
    for (const status of [401, 403]) {
      const error = await failure(request(`${echoUrl}/?status=${status}`, keyed));
      expect(error).toMatchObject({ reason: "bad_key", status });
      expect(error.message).toContain("rejected the API key");
    }
    // A keyless provider (Reddit, DuckDuckGo) refusing the server has no key to reject.
    const keyless = await failure(request(`${echoUrl}/?status=403`, { signal: signal() }));
    expect(keyless).toMatchObject({ reason: "blocked", status: 403 });
    expect(keyless.message).toContain("refused the request (HTTP 403)");
    expect(keyless.message).not.toMatch(/API key/);
  });

  it("maps 402 to quota_exhausted and 400 and 422 to invalid_request", async () => {
    const keyed = { headers: { "x-api-key": "key-123456" }, signal: signal() };
    expect(await failure(request(`${echoUrl}/?status=402`, keyed))).toMatchObject({
      reason: "quota_exhausted",
      status: 402,
    });
    for (const status of [400, 422]) {
      expect(await failure(request(`${echoUrl}/?status=${status}`, keyed))).toMatchObject({
        reason: "invalid_request",
        status,
      });
    }
    expect(await failure(request(`${echoUrl}/?status=500`, keyed))).toMatchObject({
      reason: "http_error",
      message: expect.stringContaining("returned HTTP 500"),
    });
  });

  it("lets a provider's own rules decide, by status and by a code in the body", async () => {
    const rules = [
      { status: 432, reason: "quota_exhausted" as const, says: "plan limit used up" },
      { status: 403, body: /bad request for/, reason: "blocked" as const, says: "not the key" },
    ];
    const keyed = { headers: { "x-api-key": "key-123456" }, signal: signal(), errorRules: rules };
    expect(await failure(request(`${echoUrl}/?status=432`, keyed))).toMatchObject({
      reason: "quota_exhausted",
      message: expect.stringContaining("plan limit used up (HTTP 432)"),
    });
    expect(await failure(request(`${echoUrl}/?status=403`, keyed))).toMatchObject({ reason: "blocked" });
    // The body is matched once redacted: a rule can never see (or leak) the key.
    expect((await failure(request(`${echoUrl}/?status=403`, keyed))).message).not.toContain("key-123456");
  });

  it("reads the rate-limit headers of an answer and of a 429, which waits for their reset without Retry-After", async () => {
    const answered = await requestJson(braveUrl(), { signal: signal() });
    expect(answered.rateLimit).toEqual({ perSecond: 50 }); // Brave's paid-plan headers: nothing used up
    fake.setScenario("brave", {
      status: 429,
      retryAfter: null,
      headers: { "x-ratelimit-remaining": "0, 10", "x-ratelimit-reset": "1, 1419704" },
    });
    const limited = await failure(request(braveUrl(), { signal: signal() }));
    expect(limited).toMatchObject({ reason: "rate_limited", status: 429, retryAfter: 1 });
    expect(limited.rateLimit).toEqual({ retryAfter: 1, perSecond: 50 });
    fake.setScenario("brave", { status: 429, retryAfter: "30" });
    expect(await failure(request(braveUrl(), { signal: signal() }))).toMatchObject({ retryAfter: 30 });
  });
});

describe("rateLimitHint", () => {
  const now = Date.parse("2026-05-01T00:00:00Z");
  it.each([
    [
      "Brave, a second used up",
      { "x-ratelimit-remaining": "0, 1000", "x-ratelimit-reset": "1, 1419704" },
      { retryAfter: 1 },
    ],
    [
      "Brave, the month used up",
      { "x-ratelimit-remaining": "1, 0", "x-ratelimit-reset": "1, 1419704" },
      { retryAfter: 1419704 },
    ],
    [
      "Brave, both used up: the later reset",
      { "x-ratelimit-remaining": "0, 0", "x-ratelimit-reset": "1, 86400" },
      { retryAfter: 86400 },
    ],
    ["Brave's free-plan policy", { "x-ratelimit-policy": "1;w=1, 2000;w=2592000" }, { perSecond: 1 }],
    [
      "IETF draft names",
      { "ratelimit-remaining": "0", "ratelimit-reset": "42", "ratelimit-policy": "100;w=60" },
      { retryAfter: 42 },
    ],
    [
      "You.com: a Unix time",
      { "x-ratelimit-remaining": "0", "x-ratelimit-reset": String(now / 1000 + 9) },
      { retryAfter: 9 },
    ],
    ["room left", { "x-ratelimit-remaining": "5, 900", "x-ratelimit-reset": "1, 1419704" }, undefined],
    ["no reset", { "x-ratelimit-remaining": "0" }, undefined],
    [
      "garbage",
      { "x-ratelimit-remaining": "none", "x-ratelimit-reset": "soon", "x-ratelimit-policy": "w=1" },
      undefined,
    ],
    ["nothing", {}, undefined],
  ])("%s", (_name, headers, hint) => {
    expect(rateLimitHint(headers, now)).toEqual(hint);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2025-01-01T00:00:00Z");
  it.each([
    ["120", 120],
    ["0", 0],
    ["Wed, 01 Jan 2025 00:00:30 GMT", 30],
    ["Tue, 31 Dec 2024 23:00:00 GMT", 0],
    ["soon", undefined],
    [undefined, undefined],
  ])("%s -> %s", (value, seconds) => {
    expect(parseRetryAfter(value, now)).toBe(seconds);
  });
});

describe("parseResponse", () => {
  const schema = z.object({ results: z.array(z.object({ url: z.string() })) });

  it("accepts extra fields", () => {
    expect(parseResponse(schema, { results: [{ url: "u", extra: 1 }], more: true })).toEqual({
      results: [{ url: "u" }],
    });
  });

  it("reports the path of the first offending field", () => {
    const error = (() => {
      try {
        parseResponse(schema, { results: [{ url: "ok" }, { url: 5 }] });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ reason: "invalid_response" });
    expect((error as ProviderError).message).toContain("results.1.url");
  });
});

describe("buildUrl", () => {
  it("joins base and path, encodes values and skips undefined", () => {
    expect(buildUrl("https://api.example.com/v1/", "/search", { q: "a b&c", n: 3, skip: undefined })).toBe(
      "https://api.example.com/v1/search?q=a+b%26c&n=3",
    );
  });
});
