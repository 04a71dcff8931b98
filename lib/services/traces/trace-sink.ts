/**
 * Traces are queued in memory by the call path and written in batches (one transaction per batch), so
 * recording costs the request nothing. The transport flushes after each response (`after()`), a short
 * timer catches the rest (CLI, tests), and a failed write is retried rather than dropped. `flush()` on
 * shutdown writes whatever is pending.
 */

import { sql } from "drizzle-orm";
import type { Database } from "@/lib/db";
import { log } from "@/lib/observability/logger";

export type Surface = "mcp" | "rest" | "playground" | "cli";
export type SpanKind = "search" | "fetch" | "answer" | "papers" | "llm";
export type SpanOutcome =
  | "ok"
  | "empty"
  | "error"
  | "timeout"
  | "skipped_budget"
  | "skipped_breaker"
  | "cache_hit";

export interface SpanRecord {
  provider: string;
  kind: SpanKind;
  startOffsetMs: number;
  durationMs: number;
  httpStatus?: number;
  bytes?: number;
  outcome: SpanOutcome;
  error?: string;
  costMicros: number;
}

export interface TraceRecord {
  id: string;
  tenantId: string;
  tool: string;
  surface: Surface;
  tokenId: string | null;
  tokenName: string | null;
  status: "ok" | "partial" | "error";
  durationMs: number;
  cacheHit: boolean;
  input: unknown;
  resultSummary: Record<string, unknown>;
  costMicros: number;
  error: string | null;
  createdAt: Date;
  spans: SpanRecord[];
}

export interface TraceSink {
  record(trace: TraceRecord): void;
  /** Writes everything queued so far; resolves once it is stored (or re-queued after a failure). */
  flush(): Promise<void>;
  /**
   * Resolves once what is queued now has been written by the next batch, which collects the traces of
   * every request finishing within a short window: what transports wait for after a response.
   */
  settled(): Promise<void>;
  pending(): number;
}

const FLUSH_DELAY_MS = 50;
const MAX_BATCH = 200;
/** Beyond this many queued traces (a long database outage) the oldest are dropped, loudly. */
const MAX_QUEUE = 20_000;

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
  start_offset_ms: s.startOffsetMs,
  duration_ms: s.durationMs,
  http_status: s.httpStatus ?? null,
  bytes: s.bytes ?? null,
  outcome: s.outcome,
  error: s.error ?? null,
  cost_micros: s.costMicros,
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

export function createTraceSink(db: Database): TraceSink {
  let queue: TraceRecord[] = [];
  let writing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  /** The next scheduled batch, and how to resolve its waiters once any flush has written it. */
  let nextBatch: { done: Promise<void>; resolve: () => void } | undefined;

  async function writeBatch(batch: TraceRecord[]): Promise<void> {
    const spans = batch.flatMap((trace) => trace.spans.map((span) => spanRow(trace, span)));
    await db.withSystem(async (tx) => {
      await tx.execute(sql`
        insert into traces (id, tenant_id, tool, surface, token_id, token_name, status, duration_ms,
                            cache_hit, input, result_summary, cost_micros, error, created_at)
        select id, tenant_id, tool, surface, token_id, token_name, status, duration_ms,
               cache_hit, input, result_summary, cost_micros, error, created_at
        from json_populate_recordset(null::traces, ${asJson(batch.map(traceRow))}::json)`);
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
  async function writeOneByOne(batch: TraceRecord[]): Promise<void> {
    for (const trace of batch) {
      await writeBatch([trace]).catch((error: unknown) =>
        log().error({ err: error, trace_id: trace.id }, "traces: dropping a trace the database refuses"),
      );
    }
  }

  async function drain(): Promise<void> {
    if (db.closed && queue.length > 0) {
      log().error({ lost: queue.length }, "traces: database closed, traces not written");
      queue = [];
    }
    while (queue.length > 0) {
      const batch = queue.slice(0, MAX_BATCH);
      queue = queue.slice(batch.length);
      try {
        await writeBatch(batch);
      } catch (error) {
        if (isDataError(error)) {
          await writeOneByOne(batch);
          continue;
        }
        queue = [...batch, ...queue];
        if (queue.length > MAX_QUEUE) {
          log().error({ dropped: queue.length - MAX_QUEUE }, "traces: dropping the oldest queued traces");
          queue = queue.slice(queue.length - MAX_QUEUE);
        }
        log().warn(error, "traces: write failed, will retry");
        void schedule(FLUSH_DELAY_MS * 10);
        return;
      }
    }
  }

  function flush(): Promise<void> {
    clearTimeout(timer);
    timer = undefined;
    const waiting = nextBatch;
    nextBatch = undefined;
    writing = writing.then(drain);
    if (waiting) void writing.then(waiting.resolve);
    return writing;
  }

  function schedule(delay: number): Promise<void> {
    if (!nextBatch) {
      let resolve = () => {};
      const done = new Promise<void>((r) => {
        resolve = r;
      });
      nextBatch = { done, resolve };
      timer = setTimeout(() => void flush(), delay);
      timer.unref();
    }
    return nextBatch.done;
  }

  return {
    record(trace) {
      queue.push(trace);
      if (queue.length >= MAX_BATCH) void flush();
      else void schedule(FLUSH_DELAY_MS);
    },
    flush,
    settled: () => (queue.length === 0 ? writing : schedule(FLUSH_DELAY_MS)),
    pending: () => queue.length,
  };
}
