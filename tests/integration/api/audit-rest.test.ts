/**
 * GET /api/v1/audit through the real route handler and token wrapper (the audit log's threat model in
 * docs/api.md): admins only, the workspace's own rows only, who acted and through what, filters and keyset
 * pages that neither repeat nor skip an entry.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TenantContext } from "@/lib/pipeline/context";
import { callRoute, inProcessApp, type RouteHandler, routeRequest } from "@/tests/support/route-handlers";

const app = inProcessApp("audit-rest");
let route: RouteHandler<Record<string, never>>;
let owner: TenantContext;
let ownerId = "";
let adminToken = "";
let adminTokenId = "";

interface Entry {
  id: string;
  action: string;
  target_type: string;
  actor: Record<string, unknown>;
  details: Record<string, unknown>;
}
interface Page {
  entries: Entry[];
  next_cursor: string | null;
}

async function audit(token: string, query = "") {
  const response = await callRoute(route, routeRequest(`/api/v1/audit${query}`, { token }), {});
  return { status: response.status, body: await response.json() };
}

beforeAll(async () => {
  await app.start();
  route = (await import("@/app/api/v1/audit/route")).GET as typeof route;
  const { ownedWorkspace } = await import("@/tests/support/route-handlers");
  const { tenantContext } = await import("@/lib/pipeline/platform");
  const { SCOPES } = await import("@/lib/pipeline/context");
  const { createToken } = await import("@/lib/services/tokens/create-token");
  const { setBudget } = await import("@/lib/services/budgets/set-budget");
  const workspace = await ownedWorkspace("owner@audit.test", "audit");
  ownerId = workspace.userId;
  owner = await tenantContext({ kind: "user", userId: ownerId }, workspace.tenantId, SCOPES, "playground");
  const created = await createToken({ ctx: owner, input: { name: "ops", scopes: ["admin"] } });
  adminToken = created.token;
  adminTokenId = created.id;
  // A change made with the token: its entry names the token and the member it answers to.
  const viaToken = await tenantContext(
    { kind: "token", tokenId: created.id, tokenName: "ops", userId: ownerId },
    workspace.tenantId,
    ["admin"],
    "rest",
  );
  await setBudget({
    ctx: viaToken,
    input: { provider: "brave", metric: "requests", period: "day", limit: 10 },
  });
  for (const name of ["a", "b", "c"]) await createToken({ ctx: owner, input: { name, scopes: ["search"] } });
});

afterAll(() => app.stop());

describe("GET /api/v1/audit", () => {
  it("lists the workspace's changes newest first, with who made them and through what", async () => {
    const { status, body } = await audit(adminToken);
    expect(status).toBe(200);
    const page = body as Page;
    expect(page.entries.map((e) => e.action).slice(0, 5)).toEqual([
      "token.create",
      "token.create",
      "token.create",
      "budget.set",
      "token.create",
    ]);
    const budget = page.entries.find((e) => e.action === "budget.set");
    expect(budget?.actor).toMatchObject({ via: "token", token_id: adminTokenId, token_name: "ops" });
    const bySession = page.entries.find((e) => e.action === "token.create");
    expect(bySession?.actor).toMatchObject({ via: "session", user_id: ownerId, user_name: "Owner" });
    // The details never carry the token's secret.
    expect(JSON.stringify(page.entries)).not.toContain(adminToken);
  });

  it("pages by cursor without repeating or skipping an entry, and refuses a cursor it never gave", async () => {
    const all = ((await audit(adminToken, "?limit=100")).body as Page).entries.map((e) => e.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const query: string = `?limit=2${cursor ? `&cursor=${cursor}` : ""}`;
      const page = (await audit(adminToken, query)).body as Page;
      seen.push(...page.entries.map((e) => e.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all);
    expect(all.length).toBeGreaterThanOrEqual(6);
    const bad = await audit(adminToken, "?cursor=bm90LWEtY3Vyc29y");
    expect(bad).toMatchObject({ status: 400, body: { error: { code: "invalid_input" } } });
  });

  it("filters by action, by area, by token and by time", async () => {
    const exact = (await audit(adminToken, "?action=budget.set")).body as Page;
    expect(exact.entries.map((e) => e.action)).toEqual(["budget.set"]);
    const area = (await audit(adminToken, "?action=token.")).body as Page;
    expect(area.entries.length).toBe(4);
    expect(new Set(area.entries.map((e) => e.action))).toEqual(new Set(["token.create"]));
    const byToken = (await audit(adminToken, `?token_id=${adminTokenId}`)).body as Page;
    expect(byToken.entries.map((e) => e.action)).toEqual(["budget.set"]);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect(((await audit(adminToken, `?since=${encodeURIComponent(future)}`)).body as Page).entries).toEqual(
      [],
    );
    expect((await audit(adminToken, "?action=DROP%20TABLE")).status).toBe(400);
  });

  it("answers only admin tokens, and only with their own workspace's entries", async () => {
    const { newToken, operatorWorkspace } = await import("@/tests/support/route-handlers");
    const searchOnly = await newToken(owner, { name: "agent", scopes: ["search"] });
    expect(await audit(searchOnly)).toMatchObject({
      status: 403,
      body: { error: { code: "forbidden", details: { scope: "admin" } } },
    });
    const other = await operatorWorkspace("audit-other");
    const otherAdmin = await newToken(other, { name: "theirs", scopes: ["admin"] });
    const theirs = (await audit(otherAdmin)).body as Page;
    // Its own token, then its creation and default budget: none of this workspace's six changes. The last two
    // are written in one transaction, at one timestamp, so either may be listed first.
    const actions = theirs.entries.map((e) => e.action);
    expect(actions[0]).toBe("token.create");
    expect(actions.slice(1).sort()).toEqual(["budget.default", "tenant.create"]);
    expect(theirs.entries.map((e) => e.details.name)).toContain("theirs");
    expect((await audit("smx_not_a_token")).status).toBe(401);
  });
});
