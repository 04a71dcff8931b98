import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { metrics } from "@/lib/observability/metrics";
import type { TraceRecord } from "@/lib/pipeline/capabilities";
import { createTraceSink, MAX_QUEUED_TRACES } from "@/lib/pipeline/traces/trace-sink";
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
  // Sustained traffic: the queue never runs empty while it lasts. It ends when settled() answers, or, should
  // settled() wait for an empty queue, after TRAFFIC_TICKS rounds of 50 traces (a count, not a time).
  const TRAFFIC_TICKS = 5_000;
  let settledDuringTraffic: boolean | undefined;
  let ticks = 0;
  let n = 0;
  let stopTraffic = () => {};
  const trafficOver = new Promise<void>((resolve) => {
    stopTraffic = resolve;
  });
  const traffic = setInterval(() => {
    for (let i = 0; i < 50; i++) sink.record(trace(n++));
    if (++ticks >= TRAFFIC_TICKS) stopTraffic();
  }, 1);
  void sink.settled().then(() => {
    settledDuringTraffic ??= ticks < TRAFFIC_TICKS;
    stopTraffic();
  });
  await trafficOver;
  clearInterval(traffic);
  await sink.flush();

  expect(settledDuringTraffic).toBe(true); // answered while traces still poured in
});
