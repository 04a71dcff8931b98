/**
 * The workspace model's parts without a database: its settings' validation, the price a model call reserves
 * and is charged, the guarded transport to a tenant-supplied base URL (https, the address rules, no redirect
 * followed, failures without the endpoint's body or key), the key bound to its base URL, and how the Keys
 * page words the row.
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEndpoint } from "@/lib/dashboard/provider-rows";
import { MAX_OUTPUT_TOKENS, modelCallPricing } from "@/lib/engine/extract/extract-page";
import { type EndpointGuard, endpointJson, STRICT_GUARD } from "@/lib/http/endpoint-request";
import { parseAllowlist } from "@/lib/http/ssrf";
import type { ServiceError } from "@/lib/pipeline/errors";
import { open, parseKeyring, seal, storedKeyBinding } from "@/lib/pipeline/keys/key-encryption";
import { endpointGuard, workspaceModelSettings } from "@/lib/pipeline/providers/workspace-model";
import { parseInput } from "@/lib/pipeline/validate";
import { type LoopbackServer, listenOnLoopback } from "@/tests/support/loopback-server";

const settings = (change: Record<string, unknown> = {}) => ({
  base_url: "https://api.example.com/v1",
  model: "gpt-4.1-mini",
  price_per_mtok: { input: 0.4, output: 1.6 },
  ...change,
});
/** The problems the verbs would report (their zod error map, lib/pipeline/input-issues.ts). */
const problems = (change: Record<string, unknown>) => {
  try {
    parseInput(workspaceModelSettings, settings(change));
    return [];
  } catch (error) {
    return (error as ServiceError).message.split("; ");
  }
};

describe("the workspace model's settings", () => {
  it("keeps one spelling of the base URL (lowercase host, no trailing slash) and takes a price of 0", () => {
    expect(
      workspaceModelSettings.parse(
        settings({ base_url: " https://API.Example.com/v1/ ", price_per_mtok: { input: 0, output: 0 } }),
      ),
    ).toEqual({
      base_url: "https://api.example.com/v1",
      model: "gpt-4.1-mini",
      price_per_mtok: { input: 0, output: 0 },
    });
  });

  it.each([
    [
      "not a URL",
      { base_url: "api.example.com/v1" },
      "base_url: must be an absolute URL, such as https://api.example.com/v1",
    ],
    ["another scheme", { base_url: "file:///etc/passwd" }, "base_url: must be an http or https URL"],
    [
      "credentials",
      { base_url: "https://me:secret@api.example.com/v1" },
      "base_url: must not hold credentials (the key is its own field)",
    ],
    [
      "a query",
      { base_url: "https://api.example.com/v1?api_key=x" },
      "base_url: must have no query or fragment",
    ],
    ["no model", { model: " " }, "model: must not be empty"],
    [
      "a negative price",
      { price_per_mtok: { input: -0.1, output: 1 } },
      "price_per_mtok.input: must be at least 0",
    ],
    [
      "a price off by zeros",
      { price_per_mtok: { input: 1, output: 1_600 } },
      "price_per_mtok.output: must be at most 1000",
    ],
    ["no price", { price_per_mtok: undefined }, "price_per_mtok: is required"],
    [
      "an unknown field",
      { temperature: 0 },
      'unknown field "temperature" (known: base_url, model, price_per_mtok)',
    ],
  ])("refuses %s", (_what, change, problem) => {
    expect(problems(change)).toEqual([problem]);
  });

  it("allows plain http outside production only, and exempts the operator's allowlist", () => {
    expect(endpointGuard({}).allowHttp).toBe(true);
    expect(endpointGuard({ NODE_ENV: "production" }).allowHttp).toBe(false);
    expect([...endpointGuard({ SEARCHMUX_FETCH_ALLOWLIST: "models.corp.example" }).allowlist.hosts]).toEqual([
      "models.corp.example",
    ]);
  });
});

describe("a model call's price", () => {
  const price = { inputPerMillion: 3, outputPerMillion: 5 };
  const messages = [
    { role: "system" as const, content: "x".repeat(1_000) },
    { role: "user" as const, content: "y".repeat(2_000) },
  ];

  it("reserves a token per prompt character and a full reply, and charges the tokens the answer reports", () => {
    const pricing = modelCallPricing(price, messages);
    expect(pricing.reserveMicros).toBe(3_000 * 3 + MAX_OUTPUT_TOKENS * 5);
    expect(pricing.costMicros({ json: "{}", usage: { prompt_tokens: 800, completion_tokens: 40 } })).toBe(
      800 * 3 + 40 * 5,
    );
  });

  it("keeps the reservation when the answer reports no usage", () => {
    const pricing = modelCallPricing(price, messages);
    expect(pricing.costMicros({ json: "{}" })).toBe(pricing.reserveMicros);
  });
});

describe("requests to a workspace's endpoint", () => {
  let server: LoopbackServer;
  const seen: string[] = [];
  const local: EndpointGuard = { allowlist: parseAllowlist(["127.0.0.1"]), allowHttp: false };
  const intranet: EndpointGuard = {
    allowlist: parseAllowlist(["models.intranet.example"]),
    allowHttp: false,
  };
  const call = (path: string, guard = local) =>
    endpointJson(`${server.origin}${path}`, {
      method: "POST",
      headers: { authorization: "Bearer sk-endpoint-secret-1234" },
      json: { model: "m" },
      signal: AbortSignal.timeout(10_000),
      guard,
      timeoutMs: 10_000,
    });

  beforeAll(async () => {
    server = await listenOnLoopback(
      http.createServer((req, res) => {
        seen.push(req.url ?? "");
        const answer = (status: number, body: string, headers: Record<string, string> = {}) => {
          res.writeHead(status, { "content-type": "application/json", ...headers });
          res.end(body);
        };
        if (req.url === "/ok") return answer(200, '{"ok": true}');
        if (req.url === "/redirect") return answer(302, "", { location: "http://127.0.0.2/steal" });
        if (req.url === "/refused")
          return answer(401, '{"error": "internal detail: sk-endpoint-secret-1234"}');
        if (req.url === "/limited") return answer(429, "{}", { "retry-after": "12" });
        if (req.url === "/html")
          return answer(200, "<html>internal admin page</html>", { "content-type": "text/html" });
        return answer(500, '{"error": "stack trace of an internal service"}');
      }),
    );
  });
  afterAll(() => server?.close());

  it("answers JSON from an allowlisted loopback address, over http even where https is required", async () => {
    await expect(call("/ok")).resolves.toMatchObject({ status: 200, json: { ok: true } });
  });

  it("refuses plain http to an allowlisted intranet name where https is required: the key would cross its network in clear", async () => {
    const before = seen.length;
    await expect(
      endpointJson("http://models.intranet.example/v1/chat/completions", {
        method: "POST",
        headers: { authorization: "Bearer sk-endpoint-secret-1234" },
        json: { model: "m" },
        signal: AbortSignal.timeout(10_000),
        guard: intranet,
        timeoutMs: 10_000,
      }),
    ).rejects.toMatchObject({ reason: "blocked", message: "models.intranet.example: only https is allowed" });
    expect(seen.length).toBe(before);
  });

  it("refuses loopback and plain http before connecting when the host is not allowlisted", async () => {
    const before = seen.length;
    await expect(call("/ok", STRICT_GUARD)).rejects.toMatchObject({
      reason: "blocked",
      message: "127.0.0.1: only https is allowed",
    });
    await expect(call("/ok", { ...STRICT_GUARD, allowHttp: true })).rejects.toMatchObject({
      reason: "blocked",
      message: expect.stringMatching(/^127\.0\.0\.1: port \d+ is not allowed/),
    });
    expect(seen.length).toBe(before);
  });

  it("follows no redirect, and says only the status of a failure: never the body, nor the key", async () => {
    const host = new URL(server.origin).host;
    const failures = await Promise.all(
      ["/redirect", "/refused", "/limited", "/html", "/broken"].map((path) =>
        call(path).then(
          () => undefined,
          (error: unknown) => error as { reason: string; message: string; retryAfter?: number },
        ),
      ),
    );
    expect(failures.map((f) => f && { reason: f.reason, message: f.message })).toEqual([
      { reason: "http_error", message: `${host} redirected (HTTP 302); redirects are not followed` },
      { reason: "bad_key", message: `${host} rejected the API key (HTTP 401)` },
      { reason: "rate_limited", message: `${host} rate limited (HTTP 429)` },
      { reason: "invalid_response", message: `${host} returned something other than JSON` },
      { reason: "http_error", message: `${host} returned HTTP 500` },
    ]);
    expect(failures[2]?.retryAfter).toBe(12);
    expect(seen).not.toContain("/steal");
  });
});

describe("a workspace model's key", () => {
  const keyring = parseKeyring(`1:${randomBytes(32).toString("base64")}`);
  const row = {
    tenantId: "00000000-0000-4000-8000-000000000001",
    provider: "workspace_llm",
    id: "row-1",
    settings: settings(),
  };

  it("opens only beside the base URL it was saved with", () => {
    const sealed = seal(keyring, "sk-workspace-key", storedKeyBinding(row));
    expect(open(keyring, sealed, storedKeyBinding(row))).toBe("sk-workspace-key");
    const moved = { ...row, settings: settings({ base_url: "https://attacker.example/v1" }) };
    expect(() => open(keyring, sealed, storedKeyBinding(moved))).toThrow();
  });

  it("binds other providers' keys as before: tenant, provider and row", () => {
    const plain = { tenantId: row.tenantId, provider: "brave", id: "row-2", settings: null };
    const sealed = seal(keyring, "brave-key", { tenantId: row.tenantId, provider: "brave", rowId: "row-2" });
    expect(open(keyring, sealed, storedKeyBinding(plain))).toBe("brave-key");
  });

  it("reads on the Keys page as its host, model and price", () => {
    expect(
      describeEndpoint({
        host: "api.example.com",
        model: "gpt-4.1-mini",
        price_per_mtok: { input: 0.4, output: 1.6 },
      }),
    ).toBe("api.example.com · gpt-4.1-mini · $0.40 in, $1.60 out per million tokens");
  });
});
