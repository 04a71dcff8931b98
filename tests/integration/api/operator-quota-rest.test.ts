/**
 * An operator quota over REST (security #14): once a workspace has used its quota of the operator's
 * keys, a call that only the operator's keys could serve is a 402 naming the quota, and /usage shows it.
 * Real route handlers and token wrapper, on PostgreSQL when DATABASE_URL is set (else embedded).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";

type Route = (request: Request, context: { params: Promise<Record<string, never>> }) => Promise<Response>;

const target = databaseTargets().at(-1);
const dataDir = mkdtempSync(path.join(tmpdir(), "smx-quota-rest-"));
let t: TestDatabase;
let fake: FakeProviders;
let token: string;
const routes: Record<string, Record<string, Route>> = {};

async function call(route: string, method: string, body?: unknown) {
  const request = new Request(`http://localhost/api/v1/${route}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const handler = routes[route]?.[method];
  if (!handler) throw new Error(`no ${method} /api/v1/${route}`);
  const response = await handler(request, { params: Promise.resolve({}) });
  return { status: response.status, body: await response.json() };
}

beforeAll(async () => {
  if (!target) throw new Error("no database target");
  t = await target.create();
  fake = await startFakeProviders();
  Object.assign(process.env, {
    DATABASE_URL: t.url,
    SEARCHMUX_DATA_DIR: dataDir,
    REDIS_URL: "",
    KV_REST_API_URL: "",
    KV_REST_API_TOKEN: "",
    BRAVE_BASE_URL: fake.baseUrlFor("brave"),
    BRAVE_API_KEY: "operator-brave",
    DUCKDUCKGO_BASE_URL: fake.baseUrlFor("duckduckgo"),
    SEARCHMUX_OPERATOR_QUOTA_REQUESTS_DAY: "1",
  });
  for (const name of ["search", "usage"]) {
    routes[name] = (await import(`@/app/api/v1/${name}/route`)) as Record<string, Route>;
  }
  const { systemContext, tenantContext } = await import("@/lib/services/platform");
  const { createTenant } = await import("@/lib/services/tenants/create-tenant");
  const { createToken } = await import("@/lib/services/tokens/create-token");
  const operator = { kind: "operator" } as const;
  const tenant = await createTenant({ ctx: await systemContext(operator), input: { name: "quota" } });
  const ctx = await tenantContext(operator, tenant.id, ["admin", "search"], "rest");
  token = (await createToken({ ctx, input: { name: "quota", scopes: ["search"] } })).token;
});

afterAll(async () => {
  const { closeDatabase } = await import("@/lib/db");
  await closeDatabase();
  await fake?.close();
  await t?.cleanup();
  rmSync(dataDir, { recursive: true, force: true });
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
