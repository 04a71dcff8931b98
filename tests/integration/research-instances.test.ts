/**
 * A research job outlives the instance running it: a separate process (tests/support/research-instance.ts)
 * claims the job and is killed (SIGKILL) mid-search; once its lease lapses this process takes the job over
 * from the last checkpoint, repeats no finished search, and writes the report. Needs a real PostgreSQL.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { researchJobs } from "@/lib/db/schema";
import type { Platform, TenantContext } from "@/lib/pipeline/context";
import { getResearch } from "@/lib/services/research/get-research";
import { stateOf } from "@/lib/services/research/research-state";
import { createResearchWorker } from "@/lib/services/research/worker";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { FETCH_WIRES, fetchWireId } from "@/tests/fakes/fetch-wires";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { type ResearchSite, startResearchSite } from "@/tests/fakes/research-site";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";

const postgres = databaseTargets().find((target) => target.name === "postgres");

describe.runIf(postgres)("a research job whose instance is killed", () => {
  let t: TestDatabase;
  let fake: FakeProviders;
  let site: ResearchSite;
  let platform: Platform;
  let ctx: TenantContext;
  let instance: ChildProcess | undefined;
  let env: Record<string, string>;

  const row = async (id: string) => {
    const [found] = await t.db.withSystem((tx) =>
      tx.select().from(researchJobs).where(eq(researchJobs.id, id)),
    );
    if (!found) throw new Error("job gone");
    return found;
  };

  beforeAll(async () => {
    t = await (postgres as NonNullable<typeof postgres>).create();
    fake = await startFakeProviders(FETCH_WIRES);
    site = await startResearchSite();
    env = {
      SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1",
      DUCKDUCKGO_BASE_URL: fake.baseUrlFor("duckduckgo"),
      JINA_READER_BASE_URL: fake.baseUrlFor(fetchWireId("jina")),
    };
    platform = testPlatform(t.db, { env });
    ctx = tenantCtx(
      platform,
      (await createTenant({ ctx: systemCtx(platform), input: { name: "killed" } })).id,
    );
  });
  const killInstance = () => {
    if (instance?.pid === undefined || instance.signalCode !== null) return;
    try {
      process.kill(-instance.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  };

  afterAll(async () => {
    killInstance();
    await site?.close();
    await fake?.close();
    await t?.cleanup();
  });

  it("is taken over from its checkpoint by another instance, and finishes", async () => {
    // Each search takes 700 ms: the instance is killed while it is searching, after a checkpoint.
    fake.setScenario("duckduckgo", { results: site.results(1, 2, 3, 4), latencyMs: 700 });
    const [queued] = await t.db.withTenant(ctx.tenantId, (tx) =>
      tx
        .insert(researchJobs)
        .values({
          tenantId: ctx.tenantId,
          surface: "cli",
          scopes: [...ctx.scopes],
          input: {
            question: "How efficient are solar panels?",
            max_queries: 5,
            max_pages: 3,
            providers: ["duckduckgo"],
          },
        })
        .returning({ id: researchJobs.id }),
    );
    const id = queued?.id ?? "";

    instance = spawn("node_modules/.bin/tsx", ["tests/support/research-instance.ts"], {
      env: {
        ...process.env,
        ...env,
        DATABASE_URL: t.url,
        SEARCHMUX_SECRET_KEY: `1:${randomBytes(32).toString("base64")}`,
      },
      stdio: ["ignore", "pipe", "inherit"],
      // Its own process group: tsx runs the script in a child process, and both must die.
      detached: true,
    });
    const [owner] = (await new Promise<Buffer>((resolve) => instance?.stdout?.once("data", resolve)))
      .toString()
      .split("\n");
    await expect
      .poll(async () => Object.keys(stateOf((await row(id)).state).searches).length, { timeout: 20_000 })
      .toBeGreaterThanOrEqual(2);
    killInstance();
    const killedAt = await row(id);
    expect(killedAt).toMatchObject({ status: "running", leaseOwner: owner, attempts: 1 });
    const searchedBefore = Object.keys(stateOf(killedAt.state).searches);

    const survivor = createResearchWorker({
      concurrency: 1,
      leaseMs: 30_000,
      heartbeatMs: 1_000,
      maxAttempts: 3,
    });
    await expect
      .poll(
        async () => {
          survivor.wake(platform);
          await survivor.idle();
          return (await row(id)).status;
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe("succeeded");

    const finished = await row(id);
    expect(finished.attempts).toBe(2);
    const queries = fake.requests("duckduckgo").map((request) => (request.body as { q?: string }).q);
    for (const query of searchedBefore) expect(queries.filter((q) => q === query)).toHaveLength(1);
    expect(Object.keys(stateOf(finished.state).searches)).toHaveLength(5);
    const job = await getResearch({ ctx, input: { id } });
    expect(job.report).toMatch(/## Sources/);
    for (const source of job.sources) expect(source.url.startsWith(site.origin)).toBe(true);
  }, 60_000);
});
