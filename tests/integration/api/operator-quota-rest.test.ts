/**
 * An operator quota over REST (security #14): once a workspace has used its quota of the operator's
 * keys, a call that only the operator's keys could serve is a 402 naming the quota, and /usage shows it.
 * Real route handlers and token wrapper, on PostgreSQL when DATABASE_URL is set (else embedded).
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RouteMethod } from "@/lib/api/route-methods";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { serveRequest } from "@/tests/support/app-routes";
import { inProcessApp, newToken, operatorWorkspace, routeRequest } from "@/tests/support/route-handlers";

const app = inProcessApp("quota-rest", { database: "fresh" });
let fake: FakeProviders;
let token: string;

async function call(route: string, method: RouteMethod, body?: unknown) {
  const request = routeRequest(`/api/v1/${route}`, { method, token, body });
  const response = await serveRequest(request);
  return { status: response.status, body: await response.json() };
}

beforeAll(async () => {
  fake = await startFakeProviders();
  await app.start({
    BRAVE_BASE_URL: fake.baseUrlFor("brave"),
    BRAVE_API_KEY: "operator-brave",
    DUCKDUCKGO_BASE_URL: fake.baseUrlFor("duckduckgo"),
    SEARCHMUX_OPERATOR_QUOTA_REQUESTS_DAY: "1",
  });
  const ctx = await operatorWorkspace("quota", "rest", ["admin", "search"]);
  token = await newToken(ctx, { name: "quota", scopes: ["search"] });
});

afterAll(async () => {
  await app.stop();
  await fake?.close();
});

describe("an operator quota on REST", () => {
  it("402s once the quota is used, naming it; keyless providers still answer", async () => {
    const first = await call("search", "POST", { query: "first", providers: ["brave"] });
    expect(first.status).toBe(200);

    const mixed = await call("search", "POST", { query: "mixed", providers: ["brave", "duckduckgo"] });
    expect(mixed.status).toBe(200);
    expect(mixed.body.providers_failed).toEqual([
      expect.objectContaining({ provider: "brave", reason: "operator_quota_exhausted" }),
    ]);

    const refused = await call("search", "POST", { query: "refused", providers: ["brave"] });
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatchObject({
      code: "budget_exhausted",
      details: { exhausted: [{ kind: "operator_quota", metric: "requests", period: "day", limit: 1 }] },
    });
    expect(refused.body.error.message).toMatch(
      /^operator quota exhausted — the operator's keys: requests per day quota reached \(resets \S+; calls with your own provider keys are not counted\)$/,
    );

    const usage = await call("usage", "GET");
    expect(usage.status).toBe(200);
    expect(usage.body.operator_quotas).toEqual([
      { metric: "requests", period: "day", limit: 1, used: 1, remaining: 0, resets_at: expect.any(String) },
    ]);
  });
});
