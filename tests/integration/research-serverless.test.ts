/**
 * Research on a serverless host (VERCEL=1: no timers, no instance outlives its requests), through the real
 * route handlers and the official MCP client. A killed instance leaves its job `running` under a lease that
 * lapsed, its holder gone; such a job is resumed to completion by the resume-research cron route, by a REST
 * status read and by an MCP tasks/get, each waking this process's worker (the test waits for the worker to be
 * idle, no clock). Such jobs hold no place under the workspace's cap of active jobs; live ones do. What the
 * cron route and a status read may do is bounded: the secret, the caller's visibility, one batch a run.
 */
import { randomUUID } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TenantContext } from "@/lib/pipeline/context";
import { FETCH_WIRES, fetchWireId } from "@/tests/fakes/fetch-wires";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { type ResearchSite, startResearchSite } from "@/tests/fakes/research-site";
import { appFetch, serveRequest } from "@/tests/support/app-routes";
import { inProcessApp, newToken, operatorWorkspace, routeRequest } from "@/tests/support/route-handlers";

const CRON_SECRET = `cron-${randomUUID()}`;
const app = inProcessApp("research-serverless", { database: "fresh" });
let fake: FakeProviders;
let site: ResearchSite;

/** Scopes of the tokens here: admin sees every job of its workspace, whoever started it. */
const SCOPES = ["search", "mcp", "admin"] as const;

async function workspace(name: string): Promise<{ ctx: TenantContext; token: string }> {
  const ctx = await operatorWorkspace(name);
  return { ctx, token: await newToken(ctx, { name, scopes: [...SCOPES] }) };
}

type JobState = "abandoned" | "live";

/**
 * A job as an instance left it: `abandoned`, running under a lease that lapsed a minute ago, its holder
 * killed; `live`, running under another instance's lease for ten more minutes.
 */
async function runningJob(ctx: TenantContext, state: JobState): Promise<string> {
  const { researchJobs } = await import("@/lib/db/schema");
  const lease = new Date(Date.now() + (state === "live" ? 600_000 : -60_000));
  const [row] = await ctx.db.withTenant(ctx.tenantId, (tx) =>
    tx
      .insert(researchJobs)
      .values({
        tenantId: ctx.tenantId,
        surface: "rest",
        scopes: ["search", "fetch"],
        input: {
          question: "How efficient are solar panels?",
          max_queries: 2,
          max_pages: 2,
          providers: ["duckduckgo"],
        },
        status: "running",
        leaseOwner: `${state === "live" ? "busy" : "killed"}-instance:${randomUUID()}`,
        leaseExpiresAt: lease,
        attempts: 1,
        startedAt: new Date(Date.now() - 120_000),
        progress: { phase: "searching", message: "searching", done: 0, total: 4 },
      })
      .returning({ id: researchJobs.id }),
  );
  if (!row) throw new Error("no job");
  return row.id;
}

async function jobRow(ctx: TenantContext, id: string) {
  const { researchJobs } = await import("@/lib/db/schema");
  const [row] = await ctx.db.withSystem((tx) =>
    tx.select().from(researchJobs).where(eq(researchJobs.id, id)),
  );
  if (!row) throw new Error("job gone");
  return row;
}

/** Resolves once this process's worker has nothing left to run. */
async function workerIdle(): Promise<void> {
  const { researchWorker } = await import("@/lib/services/research/worker");
  await researchWorker().idle();
}

const cron = (token?: string) =>
  serveRequest(routeRequest("/api/cron/resume-research", { token: token ?? null }));
const status = (id: string, token: string) => serveRequest(routeRequest(`/api/v1/research/${id}`, { token }));

beforeAll(async () => {
  fake = await startFakeProviders(FETCH_WIRES);
  site = await startResearchSite();
  fake.setScenario("duckduckgo", { results: site.results(1, 2, 3) });
  await app.start({
    VERCEL: "1",
    CRON_SECRET,
    SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1",
    DUCKDUCKGO_BASE_URL: fake.baseUrlFor("duckduckgo"),
    JINA_READER_BASE_URL: fake.baseUrlFor(fetchWireId("jina")),
  });
});
afterAll(async () => {
  await workerIdle();
  await app.stop();
  await site?.close();
  await fake?.close();
});

describe("a job whose instance was killed, on a serverless host", () => {
  it("is resumed to completion by the resume-research cron route (CRON_SECRET), from its checkpoint", async () => {
    const { ctx } = await workspace("cron-resume");
    const id = await runningJob(ctx, "abandoned");

    for (const token of [undefined, "wrong"]) {
      const refused = await cron(token);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ error: { code: "unauthorized" } });
    }
    expect((await jobRow(ctx, id)).attempts).toBe(1);

    const response = await cron(CRON_SECRET);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ job: "resume-research", ran: true, count: 1 });
    await workerIdle();

    const finished = await jobRow(ctx, id);
    expect(finished).toMatchObject({ status: "succeeded", attempts: 2, leaseOwner: null });
    expect(finished.report).toMatch(/## Sources/);
    // Nothing was left to resume: the next run claims nothing.
    expect(await (await cron(CRON_SECRET)).json()).toMatchObject({ ran: true, count: 0 });
  });

  it("is resumed by a REST status read, and only by a reader who may see it", async () => {
    const owner = await workspace("status-resume");
    const other = await workspace("status-other");
    const id = await runningJob(owner.ctx, "abandoned");

    // Another workspace's read: not found, and nothing woken.
    const foreign = await status(id, other.token);
    expect(foreign.status).toBe(404);
    await workerIdle();
    expect(await jobRow(owner.ctx, id)).toMatchObject({ status: "running", attempts: 1 });

    const read = await status(id, owner.token);
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ id, status: "running" });
    await workerIdle();
    expect(await jobRow(owner.ctx, id)).toMatchObject({ status: "succeeded", attempts: 2 });
    expect(await (await status(id, owner.token)).json()).toMatchObject({
      status: "succeeded",
      report: expect.stringMatching(/## Sources/),
    });
  });

  it("is resumed by an MCP tasks/get (2025-11-25, the official client)", async () => {
    const { ctx, token } = await workspace("task-resume");
    const id = await runningJob(ctx, "abandoned");
    const client = new Client({ name: "tasks", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL("http://localhost/api/mcp"), {
        fetch: appFetch,
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    expect((await client.experimental.tasks.getTask(id)).status).toBe("working");
    await workerIdle();
    expect((await client.experimental.tasks.getTask(id)).status).toBe("completed");
    await client.close();
  });

  it("holds no place under the workspace's cap of active jobs; a live job does", async () => {
    const { MAX_ACTIVE_JOBS } = await import("@/lib/services/research/queue-job");
    const start = (token: string) =>
      serveRequest(
        routeRequest("/api/v1/research", {
          method: "POST",
          token,
          body: { question: "How long do solar panels last?", providers: ["duckduckgo"], max_queries: 1 },
        }),
      );

    const stuck = await workspace("cap-abandoned");
    const abandoned = await Promise.all(
      Array.from({ length: MAX_ACTIVE_JOBS }, () => runningJob(stuck.ctx, "abandoned")),
    );
    const admitted = await start(stuck.token);
    expect(admitted.status).toBe(202);
    // The start woke the worker: the abandoned jobs are resumed too.
    await workerIdle();
    for (const id of abandoned) expect((await jobRow(stuck.ctx, id)).status).toBe("succeeded");

    const busy = await workspace("cap-live");
    const live = await Promise.all(
      Array.from({ length: MAX_ACTIVE_JOBS }, () => runningJob(busy.ctx, "live")),
    );
    const refused = await start(busy.token);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ error: { code: "rate_limited", details: { limit: 5 } } });
    await workerIdle();
    // Live leases are another instance's: never taken over.
    for (const id of live)
      expect(await jobRow(busy.ctx, id)).toMatchObject({ status: "running", attempts: 1 });
  });
});

describe("the resume-research cron route", () => {
  it("claims one batch a run, as many as the worker has room for; the next run takes the rest", async () => {
    const { ctx } = await workspace("cron-batch");
    const ids = await Promise.all(Array.from({ length: 3 }, () => runningJob(ctx, "abandoned")));
    const first = await (await cron(CRON_SECRET)).json();
    // Taken as the first run's: the worker's two slots.
    expect(first).toMatchObject({ ran: true, count: 2 });
    await workerIdle();
    const second = await (await cron(CRON_SECRET)).json();
    expect(second).toMatchObject({ ran: true, count: 1 });
    await workerIdle();
    for (const id of ids) expect((await jobRow(ctx, id)).status).toBe("succeeded");
  });
});
