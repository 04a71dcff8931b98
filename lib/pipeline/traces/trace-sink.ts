/**
 * Traces are queued in memory by the call path and written in batches (one transaction per batch), so
 * recording costs the request nothing. The transport flushes after each response (`after()`), a short
 * timer catches the rest (CLI, tests), and a failed write is retried rather than dropped. `flush()` on
 * shutdown writes whatever is pending.
 */

import { sql } from "drizzle-orm";
import type { Database } from "@/lib/db";
import { log } from "@/lib/observability/logger";
import { metrics } from "@/lib/observability/metrics";
import type { SpanRecord, TraceRecord, TraceSink } from "@/lib/pipeline/capabilities";

const FLUSH_DELAY_MS = 50;
const MAX_BATCH = 200;
/**
 * Beyond this many queued traces (a database outage, or one slower than the traffic) the oldest are
 * dropped and counted (searchmux_dropped_total{queue="traces"}): memory stays bounded whatever happens.
 */
export const MAX_QUEUED_TRACES = 20_000;

/**
 * Rows as JSON for json_populate_recordset: a whole batch travels as one parameter, which costs the
 * app one JSON.stringify instead of building a statement with a placeholder per column and row.
 */
const traceRow = (t: TraceRecord) => ({
  id: t.id,
  tenant_id: t.tenantId,
  tool: t.tool,
  surface: t.surface,
  token_id: t.tokenId,
  token_name: t.tokenName,
  user_id: t.userId,
  status: t.status,
  duration_ms: t.durationMs,
  cache_hit: t.cacheHit,
  input: t.input,
  result_summary: t.resultSummary,
  cost_micros: t.costMicros,
  error: t.error,
  created_at: t.createdAt.toISOString(),
});

const spanRow = (t: TraceRecord, s: SpanRecord) => ({
  tenant_id: t.tenantId,
  trace_id: t.id,
  provider: s.provider,
  kind: s.kind,
  start_offset_ms: s.start_offset_ms,
  duration_ms: s.duration_ms,
  http_status: s.status ?? null,
  bytes: s.bytes ?? null,
  outcome: s.outcome,
  error: s.error ?? null,
  cost_micros: s.cost_micros,
});

/** Postgres text cannot hold NUL characters; hostile input may contain them (rarely: checked first). */
function asJson(rows: unknown[]): string {
  const json = JSON.stringify(rows);
  if (!json.includes("\\u0000")) return json;
  return JSON.stringify(rows, (_key, value: unknown) =>
    typeof value === "string" ? value.replaceAll("\0", "") : value,
  );
}

/** A data error (class 22) or constraint violation (23): retrying the same rows cannot succeed. */
function isDataError(error: unknown): boolean {
  // drizzle wraps the driver's error (which carries the SQLSTATE) as its cause.
  const { code, cause } = (error ?? {}) as { code?: unknown; cause?: { code?: unknown } };
  return /^2[23]/.test(String(code ?? cause?.code ?? ""));
}

/** Writes one batch, its traces and their spans, in one transaction. */
async function writeBatch(db: Database, batch: TraceRecord[]): Promise<void> {
  const spans = batch.flatMap((trace) => trace.spans.map((span) => spanRow(trace, span)));
  await db.withSystem(async (tx) => {
    // A connected app's call keeps its app (the token's grant): its access token is deleted in a day or two.
    await tx.execute(sql`
      insert into traces (id, tenant_id, tool, surface, token_id, token_name, grant_id, user_id, status,
                          duration_ms, cache_hit, input, result_summary, cost_micros, error, created_at)
      select r.id, r.tenant_id, r.tool, r.surface, r.token_id, r.token_name, a.grant_id, r.user_id, r.status,
             r.duration_ms, r.cache_hit, r.input, r.result_summary, r.cost_micros, r.error, r.created_at
      from json_populate_recordset(null::traces, ${asJson(batch.map(traceRow))}::json) r
      left join api_tokens a on a.id = r.token_id and a.tenant_id = r.tenant_id`);
    if (spans.length === 0) return;
    await tx.execute(sql`
      insert into trace_spans (tenant_id, trace_id, provider, kind, start_offset_ms, duration_ms,
                               http_status, bytes, outcome, error, cost_micros)
      select tenant_id, trace_id, provider, kind, start_offset_ms, duration_ms,
             http_status, bytes, outcome, error, cost_micros
      from json_populate_recordset(null::trace_spans, ${asJson(spans)}::json)`);
  });
}

/** Isolates the rows a batch was refused for: the others are written, those are dropped, loudly. */
async function writeOneByOne(db: Database, batch: TraceRecord[]): Promise<void> {
  for (const trace of batch) {
    await writeBatch(db, [trace]).catch((error: unknown) =>
      log().error({ err: error, trace_id: trace.id }, "traces: dropping a trace the database refuses"),
    );
  }
}

/**
 * The traces waiting to be written, and the count of those done with (written or dropped), which
 * settled() callers wait on: queued = recorded - done.
 */
class TraceQueue {
  private traces: TraceRecord[] = [];
  private recorded = 0;
  private done = 0;
  /** settled() callers, each waiting until `done` reaches the count recorded when it asked. */
  private waiters: Array<{ until: number; resolve: () => void }> = [];

  get length(): number {
    return this.traces.length;
  }

  get allDone(): boolean {
    return this.recorded === this.done;
  }

  push(trace: TraceRecord): void {
    // Full: the oldest goes (counted; the failed write that let the queue fill has logged why).
    if (this.traces.length >= MAX_QUEUED_TRACES) {
      this.traces.shift();
      this.finished(1);
      metrics().dropped.inc({ queue: "traces" });
    }
    this.traces.push(trace);
    this.recorded++;
  }

  /** The oldest traces, up to `max`, taken off the queue. */
  take(max: number): TraceRecord[] {
    const batch = this.traces.slice(0, max);
    this.traces = this.traces.slice(batch.length);
    return batch;
  }

  /** A batch that could not be written goes back to the front, the oldest dropped beyond the limit. */
  putBack(batch: TraceRecord[]): void {
    this.traces = [...batch, ...this.traces];
    const excess = this.traces.length - MAX_QUEUED_TRACES;
    if (excess <= 0) return;
    this.traces = this.traces.slice(excess);
    this.finished(excess);
    metrics().dropped.inc({ queue: "traces" }, excess);
    log().error({ dropped: excess }, "traces: dropping the oldest queued traces");
  }

  /** Drops everything queued (nowhere left to write it); how many were dropped. */
  dropAll(): number {
    const lost = this.traces.length;
    this.finished(lost);
    this.traces = [];
    return lost;
  }

  /** Counts `count` traces as done with, and wakes the settled() callers that were waiting for them. */
  finished(count: number): void {
    this.done += count;
    if (this.waiters.length === 0) return;
    const ready = this.waiters.filter((w) => w.until <= this.done);
    this.waiters = this.waiters.filter((w) => w.until > this.done);
    for (const waiter of ready) waiter.resolve();
  }

  /** Resolves once what is queued now is done with. */
  whenDone(): Promise<void> {
    return new Promise((resolve) => this.waiters.push({ until: this.recorded, resolve }));
  }
}

/**
 * Empties the queue into the database, one drain at a time. Writing is never a chain of promises made
 * per request: a promise made inside a request carries that request's async context (and with it the
 * request) until it settles, and a chain that grows while the writer lags would keep every request alive.
 */
class TraceWriter {
  /** The one drain under way, if any. */
  private draining: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Database,
    private readonly queue: TraceQueue,
  ) {}

  /** Starts draining unless a drain is under way; one that ends with traces left (raced) starts the next. */
  readonly kick = (): void => {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.draining ??= this.drain().finally(() => {
      this.draining = undefined;
      // A failed write scheduled its retry (timer); otherwise what arrived at the very end goes now.
      if (this.queue.length > 0 && !this.timer) this.kick();
    });
  };

  /** Drains after `delay` unless a drain is already scheduled. */
  schedule(delay: number): void {
    if (this.timer) return;
    this.timer = setTimeout(this.kick, delay);
    this.timer.unref();
  }

  async flush(): Promise<void> {
    this.kick();
    while (this.draining) await this.draining;
  }

  private async drain(): Promise<void> {
    const { db, queue } = this;
    if (db.closed && queue.length > 0) {
      log().error({ lost: queue.dropAll() }, "traces: database closed, traces not written");
    }
    while (queue.length > 0) {
      const batch = queue.take(MAX_BATCH);
      try {
        await writeBatch(db, batch);
        queue.finished(batch.length);
      } catch (error) {
        if (isDataError(error)) {
          await writeOneByOne(db, batch);
          queue.finished(batch.length);
          continue;
        }
        queue.putBack(batch);
        log().warn(error, "traces: write failed, will retry");
        this.schedule(FLUSH_DELAY_MS * 10);
        return;
      }
    }
  }
}

export function createTraceSink(db: Database): TraceSink {
  const queue = new TraceQueue();
  const writer = new TraceWriter(db, queue);
  return {
    record(trace) {
      queue.push(trace);
      if (queue.length >= MAX_BATCH) writer.kick();
      else writer.schedule(FLUSH_DELAY_MS);
    },
    flush: () => writer.flush(),
    settled() {
      if (queue.allDone) return Promise.resolve();
      writer.schedule(FLUSH_DELAY_MS);
      return queue.whenDone();
    },
    pending: () => queue.length,
  };
}
