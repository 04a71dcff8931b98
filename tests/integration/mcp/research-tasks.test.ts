/**
 * research over MCP with the official SDK client: as a task (2025-11-25: task-augmented tools/call, then
 * tasks/get, tasks/result, tasks/list, tasks/cancel) and as a plain call that waits, with the job's
 * progress. Tasks are research jobs in Postgres: a second connection (another request, as every stateless
 * HTTP request is) sees the same task.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { CallToolResultSchema, CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer } from "@/lib/mcp/build-server";
import { revision2025 } from "@/lib/mcp/revision-2025";
import type { Platform, Scope, TenantContext } from "@/lib/pipeline/context";
import { DEFAULT_TOKEN_SCOPES } from "@/lib/pipeline/context";
import { researchWorker } from "@/lib/services/research/worker";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { createToken } from "@/lib/services/tokens/create-token";
import { FETCH_WIRES, fetchWireId } from "@/tests/fakes/fetch-wires";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { type ResearchSite, startResearchSite } from "@/tests/fakes/research-site";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";

const [pglite] = databaseTargets();
const QUESTION = { question: "How efficient are solar panels?", providers: ["duckduckgo"], max_queries: 2 };

describe("research over MCP", () => {
  let t: TestDatabase;
  let fake: FakeProviders;
  let site: ResearchSite;
  let platform: Platform;
  let tenantId: string;
  /** The token the MCP requests come with: tasks are the jobs its member (here: it) started. */
  let tokenId: string;
  const clients: Client[] = [];

  async function connect(scopes: readonly Scope[] = DEFAULT_TOKEN_SCOPES): Promise<Client> {
    const actor = { kind: "token" as const, tokenId, tokenName: "mcp", userId: null };
    const ctx: TenantContext = { ...tenantCtx(platform, tenantId, scopes, actor), surface: "mcp" };
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await buildServer(ctx, revision2025, { tasks: true }).connect(serverSide);
    const client = new Client({ name: "tasks", version: "1.0.0" });
    await client.connect(clientSide);
    await client.listTools();
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    if (!pglite) throw new Error("no database target");
    t = await pglite.create();
    fake = await startFakeProviders(FETCH_WIRES);
    site = await startResearchSite();
    fake.setScenario("duckduckgo", { results: site.results(1, 2, 3), latencyMs: 200 });
    platform = testPlatform(t.db, {
      env: {
        SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1",
        DUCKDUCKGO_BASE_URL: fake.baseUrlFor("duckduckgo"),
        JINA_READER_BASE_URL: fake.baseUrlFor(fetchWireId("jina")),
      },
    });
    tenantId = (await createTenant({ ctx: systemCtx(platform), input: { name: "tasks" } })).id;
    tokenId = (await createToken({ ctx: tenantCtx(platform, tenantId), input: { name: "mcp" } })).id;
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await researchWorker().idle();
    await site?.close();
    await fake?.close();
    await t?.cleanup();
  });

  it("offers research as a task tool and the tasks capability", async () => {
    const client = await connect();
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === "research")?.execution).toEqual({ taskSupport: "optional" });
    expect(client.getServerCapabilities()?.tasks).toMatchObject({ list: {}, cancel: {} });
    // With fetch alone, crawl is the task tool (a large crawl is a job); with neither, there are no tasks.
    const fetchOnly = await connect(["mcp", "fetch"]);
    expect(fetchOnly.getServerCapabilities()?.tasks).toMatchObject({ list: {}, cancel: {} });
    const { tools: fetchTools } = await fetchOnly.listTools();
    expect(fetchTools.find((tool) => tool.name === "crawl")?.execution).toEqual({ taskSupport: "optional" });
    const answerOnly = await connect(["mcp", "answer"]);
    expect(answerOnly.getServerCapabilities()?.tasks).toBeUndefined();
  });

  it("runs as a task: created at once, polled from another connection, its result the cited report", async () => {
    const client = await connect();
    const created = await client.request(
      { method: "tools/call", params: { name: "research", arguments: QUESTION, task: { ttl: 60_000 } } },
      CreateTaskResultSchema,
    );
    expect(created.task).toMatchObject({ status: "working", pollInterval: 2_000 });
    const { taskId } = created.task;

    const other = await connect();
    await expect
      .poll(async () => (await other.experimental.tasks.getTask(taskId)).status, { timeout: 15_000 })
      .toBe("completed");
    const result = await other.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    const job = result.structuredContent as {
      status: string;
      report: string;
      sources: Array<{ url: string }>;
    };
    expect(job.status).toBe("succeeded");
    expect(job.report).toMatch(/^# How efficient are solar panels\?/);
    expect(result.content[0]).toMatchObject({ type: "text", text: expect.stringContaining("## Sources") });
    for (const source of job.sources) expect(source.url.startsWith(site.origin)).toBe(true);

    const { tasks } = await other.experimental.tasks.listTasks();
    expect(tasks.map((task) => task.taskId)).toContain(taskId);
    await expect(other.experimental.tasks.cancelTask(taskId)).rejects.toThrow(/terminal/);
    await expect(other.experimental.tasks.getTask("00000000-0000-4000-8000-000000000000")).rejects.toThrow(
      /not found/i,
    );
  });

  it("runs as a plain call that waits, sending the job's progress", async () => {
    // Each search takes 1.5 s (a question not searched before: no cache), so the once-a-second reads of the
    // job's row see it searching.
    fake.setScenario("duckduckgo", { results: site.results(1, 2, 3), latencyMs: 1_500 });
    const client = await connect();
    const progress: string[] = [];
    const question = { ...QUESTION, question: "How long do solar panels last?" };
    const result = await client.callTool({ name: "research", arguments: question }, CallToolResultSchema, {
      onprogress: ({ message }) => progress.push(message ?? ""),
      timeout: 30_000,
    });
    expect((result.structuredContent as { status: string }).status).toBe("succeeded");
    expect(progress).toContain("searching: How long do solar panels last?");
  });

  it("cancels a task", async () => {
    fake.setScenario("duckduckgo", { results: site.results(1), latencyMs: 3_000 });
    const client = await connect();
    const created = await client.request(
      {
        method: "tools/call",
        params: { name: "research", arguments: { ...QUESTION, max_queries: 6 }, task: {} },
      },
      CreateTaskResultSchema,
    );
    const cancelled = await client.experimental.tasks.cancelTask(created.task.taskId);
    expect(cancelled.taskId).toBe(created.task.taskId);
    await expect
      .poll(async () => (await client.experimental.tasks.getTask(created.task.taskId)).status, {
        timeout: 15_000,
      })
      .toBe("cancelled");
    const result = await client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema);
    expect(result).toMatchObject({ isError: true, structuredContent: { status: "cancelled" } });
  }, 20_000);
});
