/**
 * What a token may read and how long it lasts (security #14), through the real route handlers and token
 * wrapper on an embedded database: budget records need the admin scope on /usage as on /budgets, and a
 * token stops working as soon as the member who created it is removed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TenantContext } from "@/lib/pipeline/context";
import { boundRouteHandler } from "@/tests/support/app-routes";
import { callRoute, inProcessApp, type RouteHandler, routeRequest } from "@/tests/support/route-handlers";

const app = inProcessApp("token-rights");

type Route = RouteHandler<Record<string, never>>;
const routes: Record<string, Route> = {};

async function get(route: "usage" | "budgets", token: string) {
  const request = routeRequest(`/api/v1/${route}`, { token, headers: { "x-forwarded-for": "192.0.2.30" } });
  const response = await callRoute(routes[route], request, {});
  return { status: response.status, body: await response.json() };
}

let owner: TenantContext;
let admin: TenantContext;
let adminUserId = "";
let budgetId = "";

beforeAll(async () => {
  await app.start();
  routes.usage = await boundRouteHandler("/api/v1/usage", "GET");
  routes.budgets = (await import("@/app/api/v1/budgets/route")).GET as Route;
  const { getDatabase } = await import("@/lib/db");
  const { budgetAlerts, memberships, users } = await import("@/lib/db/schema");
  const { systemContext, tenantContext } = await import("@/lib/pipeline/platform");
  const { createTenant } = await import("@/lib/services/tenants/create-tenant");
  const { setBudget } = await import("@/lib/services/budgets/set-budget");
  const { SCOPES } = await import("@/lib/pipeline/context");
  const db = await getDatabase();
  const [ownerUser, adminUser] = await db.withSystem((tx) =>
    tx
      .insert(users)
      .values([{ email: "owner@rights.test" }, { email: "admin@rights.test" }])
      .returning({ id: users.id }),
  );
  if (!ownerUser || !adminUser) throw new Error("users not created");
  adminUserId = adminUser.id;
  const tenant = await createTenant({
    ctx: await systemContext({ kind: "operator" }),
    input: { name: "rights", ownerUserId: ownerUser.id },
  });
  await db.withSystem((tx) =>
    tx.insert(memberships).values({ tenantId: tenant.id, userId: adminUser.id, role: "admin" }),
  );
  owner = await tenantContext({ kind: "user", userId: ownerUser.id }, tenant.id, SCOPES, "playground");
  admin = await tenantContext({ kind: "user", userId: adminUser.id }, tenant.id, SCOPES, "playground");
  const budget = await setBudget({
    ctx: owner,
    input: { provider: "brave", metric: "requests", period: "day", limit: 100, soft: 80 },
  });
  budgetId = budget.id;
  await db.withTenant(tenant.id, (tx) =>
    tx.insert(budgetAlerts).values({
      tenantId: tenant.id,
      budgetId,
      kind: "soft_limit",
      periodKey: "day:2026-01-01",
      used: 80,
      limit: 100,
    }),
  );
});

afterAll(() => app.stop());

describe("GET /api/v1/usage", () => {
  it("shows every token what each budget leaves, and the budget records and alerts only to admin tokens", async () => {
    const { createToken } = await import("@/lib/services/tokens/create-token");
    const searchOnly = await createToken({ ctx: owner, input: { name: "agent", scopes: ["search"] } });
    const administers = await createToken({ ctx: owner, input: { name: "ops", scopes: ["admin"] } });

    const agent = await get("usage", searchOnly.token);
    expect(agent.status).toBe(200);
    expect(agent.body.budgets).toEqual([
      // The workspace's default spend cap: every token sees it, as it sees every budget.
      {
        name: "all providers · usd · month",
        provider: "*",
        metric: "usd",
        period: "month",
        anchor_day: 1,
        limit: 10,
        used: 0,
        remaining: 10,
        soft_exceeded: false,
        resets_at: expect.any(String),
      },
      {
        name: "brave · requests · day",
        provider: "brave",
        metric: "requests",
        period: "day",
        anchor_day: null,
        limit: 100,
        used: 0,
        remaining: 100,
        soft_exceeded: false,
        resets_at: expect.any(String),
      },
    ]);
    expect(agent.body.alerts).toEqual([]);
    expect((await get("budgets", searchOnly.token)).status).toBe(403);

    const ops = await get("usage", administers.token);
    expect(ops.body.budgets).toEqual([
      expect.objectContaining({ provider: "*", id: expect.any(String), soft: 8 }),
      expect.objectContaining({ id: budgetId, soft: 80 }),
    ]);
    expect(ops.body.alerts).toEqual([
      expect.objectContaining({ budget_id: budgetId, budget: "brave · requests · day", kind: "soft_limit" }),
    ]);
    expect((await get("budgets", administers.token)).body.budgets).toEqual(ops.body.budgets);
  });
});

describe("the default spend cap over PUT and DELETE /api/v1/budgets", () => {
  it("is changed and removed by admin tokens only", async () => {
    const { createToken } = await import("@/lib/services/tokens/create-token");
    const budgetRoutes = (await import("@/app/api/v1/budgets/route")) as unknown as Record<string, Route>;
    const searchOnly = await createToken({ ctx: owner, input: { name: "agent-2", scopes: ["search"] } });
    const administers = await createToken({ ctx: owner, input: { name: "ops-2", scopes: ["admin"] } });
    const send = async (method: "PUT" | "DELETE", path: string, token: string, body?: unknown) => {
      const request = routeRequest(path, {
        method,
        token,
        body,
        headers: { "x-forwarded-for": "192.0.2.31" },
      });
      const response = await callRoute(budgetRoutes[method], request, {});
      return { status: response.status, body: await response.json() };
    };
    const raise = { provider: "*", metric: "usd", period: "month", limit: 25 };
    expect((await send("PUT", "/api/v1/budgets", searchOnly.token, raise)).status).toBe(403);
    const raised = await send("PUT", "/api/v1/budgets", administers.token, raise);
    expect(raised).toMatchObject({ status: 200, body: { provider: "*", limit: 25, soft: null } });
    const cap = (await get("budgets", administers.token)).body.budgets.find(
      (b: { provider: string }) => b.provider === "*",
    );
    expect(cap).toMatchObject({ id: raised.body.id, limit: 25, remaining: 25 });
    const removal = `/api/v1/budgets?id=${cap.id}`;
    expect((await send("DELETE", removal, searchOnly.token)).status).toBe(403);
    expect((await send("DELETE", removal, administers.token)).status).toBe(200);
    const left = (await get("usage", searchOnly.token)).body.budgets;
    expect(left.map((b: { provider: string }) => b.provider)).toEqual(["brave"]);
  });
});

describe("a token whose creator is removed", () => {
  it("works until the member is removed and is refused right after", async () => {
    const { createToken } = await import("@/lib/services/tokens/create-token");
    const { changeMember } = await import("@/lib/services/members/change-member");
    const theirs = await createToken({ ctx: admin, input: { name: "adams-agent" } });
    expect((await get("usage", theirs.token)).status).toBe(200);

    await changeMember({ ctx: owner, input: { userId: adminUserId, role: null } });

    const refused = await get("usage", theirs.token);
    expect(refused.status).toBe(401);
  });
});
