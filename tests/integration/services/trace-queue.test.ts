import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { metrics } from "@/lib/observability/metrics";
import { createTraceSink, MAX_QUEUED_TRACES, type TraceRecord } from "@/lib/pipeline/traces/trace-sink";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { gate, holdSystemReads } from "@/tests/support/interleave";
import { systemCtx, testPlatform } from "@/tests/support/platform";

let t: TestDatabase;
let tenantId: string;

beforeAll(async () => {
  const [embedded] = databaseTargets();
  if (!embedded) throw new Error("no database target");
  t = await embedded.create();
  tenantId = (await createTenant({ ctx: systemCtx(testPlatform(t.db)), input: { name: "queue" } })).id;
});
afterAll(async () => {
  await t?.cleanup();
});

const trace = (n: number): TraceRecord => ({
  id: randomUUID(),
  tenantId,
  tool: "web_search",
  surface: "rest",
  tokenId: null,
  tokenName: null,
  userId: null,
  status: "ok",
  durationMs: n,
  cacheHit: true,
  input: { query: `q${n}` },
  resultSummary: {},
  costMicros: 0,
  error: null,
  createdAt: new Date(),
  spans: [],
});

const droppedTraces = async () =>
  (await metrics().dropped.get()).values.find((v) => v.labels.queue === "traces")?.value ?? 0;

it("holds at most MAX_QUEUED_TRACES while the database does not keep up, dropping the oldest and counting them", async () => {
  const held = gate();
  const sink = createTraceSink(holdSystemReads(t.db, held));
  const droppedBefore = await droppedTraces();

  sink.record(trace(0));
  void sink.flush();
  await held.reached; // the first batch is being written and does not finish
  for (let n = 1; n <= MAX_QUEUED_TRACES + 500; n++) sink.record(trace(n));

  expect(sink.pending()).toBe(MAX_QUEUED_TRACES);
  expect((await droppedTraces()) - droppedBefore).toBe(500);

  held.release();
  await sink.flush();
  expect(sink.pending()).toBe(0);
});

it("answers settled() once the traces queued when it was asked are written, while traffic goes on", async () => {
  const sink = createTraceSink(t.db);
  sink.record(trace(-1));
  const asked = performance.now();
  const settled = sink.settled().then(() => performance.now() - asked);
  // Sustained traffic: the queue never runs empty while it lasts.
  let n = 0;
  const traffic = setInterval(() => {
    for (let i = 0; i < 50; i++) sink.record(trace(n++));
  }, 1);
  const settledAfterMs = await Promise.race([
    settled,
    new Promise<number>((r) => setTimeout(() => r(-1), 3_000)),
  ]);
  clearInterval(traffic);
  await sink.flush();

  expect(settledAfterMs).toBeGreaterThanOrEqual(0); // not still waiting after 3 s of traffic
  expect(settledAfterMs).toBeLessThan(1_000);
});
