/**
 * The cron routes (`/api/cron/*`) in this process on a fresh database: refused without the secret (401),
 * and in production without one configured (503); with it, each runs its job and says what it did. The
 * job lock: with another transaction holding it (another instance mid-run), a run skips the job.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reservations, traces } from "@/lib/db/schema";
import type { TenantContext } from "@/lib/services/context";
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
let ctx: TenantContext;

const call = (handler: RouteHandler, path: string, token?: string) =>
  callRoute(handler, routeRequest(path, { token }), {});

beforeAll(async () => {
  await app.start({ CRON_SECRET: SECRET });
  sweep = (await import("@/app/api/cron/sweep-reservations/route")).GET;
  prune = (await import("@/app/api/cron/prune-traces/route")).GET;
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

  it("sweep: refunds a reservation whose call never settled, keeps a live one", async () => {
    const anHourAgo = new Date(Date.now() - 3_600_000);
    const { admit } = await import("@/lib/services/budgets/admission");
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
