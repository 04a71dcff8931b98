/**
 * The cron routes (`/api/cron/*`) in this process on a fresh database: refused without the secret (401),
 * and in production without one configured (503); with it, each runs its job and says what it did. The
 * job lock: with another transaction holding it (another instance mid-run), a run skips the job.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  apiTokens,
  oauthClients,
  oauthCodes,
  oauthGrants,
  oauthRefreshTokens,
  reservations,
  traces,
  users,
} from "@/lib/db/schema";
import type { TenantContext } from "@/lib/pipeline/context";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { testPlatform } from "@/tests/support/platform";
import {
  callRoute,
  inProcessApp,
  operatorWorkspace,
  type RouteHandler,
  routeRequest,
} from "@/tests/support/route-handlers";

const SECRET = `cron-${randomUUID()}`;
const DAY_MS = 86_400_000;
const app = inProcessApp("cron", { database: "fresh" });
let sweep: RouteHandler;
let prune: RouteHandler;
let pruneOAuth: RouteHandler;
let ctx: TenantContext;

const call = (handler: RouteHandler, path: string, token?: string) =>
  callRoute(handler, routeRequest(path, { token }), {});

beforeAll(async () => {
  await app.start({ CRON_SECRET: SECRET });
  sweep = (await import("@/app/api/cron/sweep-reservations/route")).GET;
  prune = (await import("@/app/api/cron/prune-traces/route")).GET;
  pruneOAuth = (await import("@/app/api/cron/prune-oauth/route")).GET;
  ctx = await operatorWorkspace("cron");
});
afterAll(() => app.stop());

describe("cron routes", () => {
  it("refuse a request without the secret or with another one (401 JSON)", async () => {
    for (const token of [undefined, "wrong", `${SECRET}x`]) {
      const response = await call(prune, "/api/cron/prune-traces", token);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: { code: "unauthorized" } });
    }
  });

  it("answer 503 in production while CRON_SECRET is not set", async () => {
    const saved = { secret: process.env.CRON_SECRET, nodeEnv: process.env.NODE_ENV };
    Object.assign(process.env, { CRON_SECRET: "", NODE_ENV: "production" });
    try {
      const response = await call(sweep, "/api/cron/sweep-reservations", SECRET);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({
        error: { code: "not_configured", message: "CRON_SECRET is not set" },
      });
    } finally {
      Object.assign(process.env, { CRON_SECRET: saved.secret, NODE_ENV: saved.nodeEnv });
    }
  });

  it("sweep: refunds a reservation whose call never settled, keeps a live one, refunds it once", async () => {
    const anHourAgo = new Date(Date.now() - 3_600_000);
    const { admit } = await import("@/lib/pipeline/budgets/admission");
    const stale = await admit({ ...ctx, now: () => anHourAgo }, request());
    const live = await admit(ctx, request());
    if (!stale.ok || !live.ok) throw new Error("not admitted");

    const response = await call(sweep, "/api/cron/sweep-reservations", SECRET);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ job: "sweep-reservations", ran: true, count: 1 });
    const rows = await ctx.db.withTenant(ctx.tenantId, (tx) =>
      tx.select({ id: reservations.id, status: reservations.status }).from(reservations),
    );
    expect(Object.fromEntries(rows.map((row) => [row.id, row.status]))).toEqual({
      [stale.reservationId]: "released",
      [live.reservationId]: "reserved",
    });
    // Idempotent: a second run (Vercel Cron every 5 minutes) finds nothing more to refund.
    expect(await (await call(sweep, "/api/cron/sweep-reservations", SECRET)).json()).toMatchObject({
      ran: true,
      count: 0,
    });
  });

  it("prune: deletes traces past the workspace's retention (30 days), keeps newer ones", async () => {
    const [, recent] = await ctx.db.withTenant(ctx.tenantId, (tx) =>
      tx
        .insert(traces)
        .values(
          [31, 29].map((days) => ({
            tenantId: ctx.tenantId,
            tool: "web_search",
            surface: "cli" as const,
            status: "ok" as const,
            durationMs: 1,
            input: {},
            resultSummary: {},
            createdAt: new Date(Date.now() - days * DAY_MS),
          })),
        )
        .returning({ id: traces.id }),
    );
    const response = await call(prune, "/api/cron/prune-traces", SECRET);
    expect(await response.json()).toMatchObject({ job: "prune-traces", ran: true, count: 1 });
    const left = await ctx.db.withTenant(ctx.tenantId, (tx) => tx.select({ id: traces.id }).from(traces));
    expect(left.map((row) => row.id)).toEqual([recent?.id]);
  });

  it("prune-oauth: deletes codes, refresh tokens, connected apps and clients that ended, keeps live ones", async () => {
    const ago = (days: number) => new Date(Date.now() - days * DAY_MS);
    const tenantId = ctx.tenantId;
    const [user] = await ctx.db.withSystem((tx) =>
      tx
        .insert(users)
        .values({ email: `${randomUUID()}@example.com` })
        .returning({ id: users.id }),
    );
    const userId = user?.id as string;
    const client = (id: string, expiresAt: Date) => ({
      id,
      kind: "registered" as const,
      name: id,
      redirectUris: ["http://127.0.0.1/callback"],
      tokenEndpointAuthMethod: "none",
      expiresAt,
    });
    const grant = (clientId: string, createdAt: Date, revokedAt?: Date) => ({
      tenantId,
      clientId,
      userId,
      scopes: ["mcp"],
      resource: "http://localhost/api/mcp",
      createdAt,
      revokedAt,
    });
    const code = (codeHash: string, clientId: string, expiresAt: Date) => ({
      codeHash,
      tenantId,
      clientId,
      userId,
      redirectUri: "http://127.0.0.1/callback",
      codeChallenge: "challenge",
      scopes: ["mcp"],
      resource: "http://localhost/api/mcp",
      expiresAt,
    });
    await ctx.db.withSystem((tx) =>
      tx
        .insert(oauthClients)
        .values([
          client("smxc_live", ago(-30)),
          client("smxc_unused", ago(1)),
          client("smxc_with_grant", ago(1)),
          client("smxc_with_code", ago(1)),
        ]),
    );
    const grants = await ctx.db.withSystem((tx) =>
      tx
        .insert(oauthGrants)
        .values([
          grant("smxc_live", ago(90)), // refreshed recently: live
          grant("smxc_with_grant", ago(90), ago(31)), // revoked 31 days ago
          grant("smxc_live", ago(90), ago(2)), // revoked 2 days ago: still shown in its history
          grant("smxc_live", ago(90)), // its refresh tokens all expired 31 days ago
        ])
        .returning({ id: oauthGrants.id }),
    );
    const [live, , revokedRecently, lapsed] = grants.map((g) => g.id);
    const refresh = (grantId: string | undefined, expiresAt: Date) => ({
      tokenHash: randomUUID(),
      tenantId,
      grantId: grantId as string,
      expiresAt,
    });
    await ctx.db.withSystem(async (tx) => {
      await tx
        .insert(oauthRefreshTokens)
        .values([
          refresh(live, ago(-29)),
          refresh(live, ago(40)),
          refresh(revokedRecently, ago(-10)),
          refresh(lapsed, ago(31)),
        ]);
      await tx.insert(apiTokens).values(
        [live, lapsed].map((grantId) => ({
          tenantId,
          name: "oauth",
          scopes: ["mcp"],
          tokenHash: randomUUID(),
          displayStart: "smx_",
          last4: "abcd",
          grantId,
          expiresAt: ago(40),
        })),
      );
      await tx
        .insert(oauthCodes)
        .values([
          code("code-expired", "smxc_live", ago(2)),
          code("code-fresh", "smxc_with_code", ago(-0.001)),
        ]);
    });

    const response = await call(pruneOAuth, "/api/cron/prune-oauth", SECRET);
    // code-expired, 1 refresh token of `live` and lapsed's, grants revokedLong and lapsed, smxc_unused.
    expect(await response.json()).toMatchObject({ job: "prune-oauth", ran: true, count: 6 });
    const left = await ctx.db.withSystem(async (tx) => ({
      clients: (await tx.select({ id: oauthClients.id }).from(oauthClients)).map((c) => c.id).sort(),
      grants: (await tx.select({ id: oauthGrants.id }).from(oauthGrants)).map((g) => g.id).sort(),
      codes: (await tx.select({ hash: oauthCodes.codeHash }).from(oauthCodes)).map((c) => c.hash),
      refreshTokens: (await tx.select({ grantId: oauthRefreshTokens.grantId }).from(oauthRefreshTokens))
        .map((r) => r.grantId)
        .sort(),
      accessTokens: (await tx.select({ grantId: apiTokens.grantId }).from(apiTokens)).map((t) => t.grantId),
    }));
    expect(left).toEqual({
      // smxc_with_grant lost its grant in this run: it goes on the next.
      clients: ["smxc_live", "smxc_with_code", "smxc_with_grant"],
      grants: [live, revokedRecently].sort(),
      codes: ["code-fresh"],
      refreshTokens: [live, revokedRecently].sort(),
      accessTokens: [live],
    });
    const again = await call(pruneOAuth, "/api/cron/prune-oauth", SECRET);
    expect(await again.json()).toMatchObject({ ran: true, count: 1 });
  });
});

const request = () => ({ provider: "brave", costMicros: 1000, idempotencyKey: randomUUID() });

// The embedded server serves one session at a time, so a second transaction cannot run beside the one
// holding the lock there; PostgreSQL shows the lock at work.
const postgres = databaseTargets().filter((target) => target.name === "postgres");
describe.skipIf(postgres.length === 0)("the job lock on PostgreSQL", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await (postgres[0] as (typeof postgres)[number]).create();
  });
  afterAll(async () => t?.cleanup());

  it("skips a job another transaction is running, runs it once that ends", async () => {
    const { runBackgroundJob } = await import("@/lib/services/ops/run-background-job");
    const platform = testPlatform(t.db);
    const run = () => runBackgroundJob({ ctx: platform, input: { name: "prune-traces" } });
    const whileHeld = await t.db.withSystem(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('searchmux.job.prune-traces'))`);
      return Promise.all([run(), runBackgroundJob({ ctx: platform, input: { name: "sweep-reservations" } })]);
    });
    expect(whileHeld.map(({ job, ran }) => ({ job, ran }))).toEqual([
      { job: "prune-traces", ran: false },
      { job: "sweep-reservations", ran: true },
    ]);
    expect(await run()).toMatchObject({ ran: true, count: 0 });
  });
});
