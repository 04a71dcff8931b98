/**
 * Traces are queued in memory by the call path and written in batches (one transaction per batch), so
 * recording costs the request nothing. The transport flushes after each response (`after()`), a short
 * timer catches the rest (CLI, tests), and a failed write is retried rather than dropped. `flush()` on
 * shutdown writes whatever is pending.
 */
import type { Database } from "../../db";
import { traceSpans, traces } from "../../db/schema";
import { log } from "../../observability/logger";

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

export function createTraceSink(db: Database): TraceSink {
  let queue: TraceRecord[] = [];
  let writing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  /** The next scheduled batch, and how to resolve its waiters once any flush has written it. */
  let nextBatch: { done: Promise<void>; resolve: () => void } | undefined;

  async function writeBatch(batch: TraceRecord[]): Promise<void> {
    await db.withSystem(async (tx) => {
      await tx.insert(traces).values(batch.map(({ spans: _, ...trace }) => trace));
      const spans = batch.flatMap((trace) =>
        trace.spans.map((span) => ({ ...span, tenantId: trace.tenantId, traceId: trace.id })),
      );
      if (spans.length > 0) await tx.insert(traceSpans).values(spans);
    });
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
