/**
 * Closed-loop HTTP load with autocannon: `connections` keep-alive connections spread over one or more
 * instances, each cycling through a mix of calls. Besides autocannon's totals it keeps what the
 * reliability checks need: every latency (any status), status codes per call kind, transport errors by
 * code and time, and the trace id of every answered call.
 */
import autocannon from "autocannon";
import { traceIdIn } from "./mcp";
import { type Percentiles, percentiles } from "./stats";

export interface LoadCall {
  /** Label in the report, e.g. "search". */
  kind: string;
  method: "GET" | "POST";
  path: string;
  /** Headers of the n-th call of this entry of the mix (n counts from 0 across all connections). */
  headers: (n: number) => Record<string, string>;
  /** Body of the n-th call of this entry. */
  body?: (n: number) => string;
}

export interface LoadOptions {
  /** Base URLs; connection i goes to urls[i % urls.length]. */
  urls: readonly string[];
  connections: number;
  durationSeconds: number;
  /** Each connection cycles through these calls in order. */
  mix: readonly LoadCall[];
  timeoutSeconds?: number;
}

interface TransportError {
  /** ms since the load started. */
  atMs: number;
  code: string;
}

export interface LoadReport {
  durationSeconds: number;
  sent: number;
  answered: number;
  requestsPerSecond: number;
  /** Answered calls by HTTP status. */
  statuses: Record<number, number>;
  /** Answered calls by kind and status. */
  byKind: Record<string, Record<number, number>>;
  /** Latency of answered calls by kind (timed from when the call was written). */
  latencyByKind: Record<string, Percentiles>;
  errors: TransportError[];
  timeouts: number;
  latencyMs: Percentiles;
  /** Trace ids returned by answered calls (REST bodies and MCP structured content). */
  traceIds: string[];
  /** Answered calls whose body carried no trace id although the status was 2xx. */
  untraced2xx: number;
}

export async function runLoad(options: LoadOptions): Promise<LoadReport> {
  const statuses: Record<number, number> = {};
  const byKind: Record<string, Record<number, number>> = {};
  const kindLatencies: Record<string, number[]> = {};
  const latencies: number[] = [];
  const errors: TransportError[] = [];
  const traceIds: string[] = [];
  let untraced2xx = 0;
  const started = Date.now();

  const requests = options.mix.map((call) => {
    const kindStatuses = byKind[call.kind] ?? {};
    byKind[call.kind] = kindStatuses;
    const kindLatency = kindLatencies[call.kind] ?? [];
    kindLatencies[call.kind] = kindLatency;
    let next = 0;
    return {
      method: call.method,
      path: call.path,
      headers: call.headers(0),
      // autocannon builds each call right before writing it; the context belongs to one connection.
      setupRequest: (request: autocannon.Request, context: { sentAt?: number }) => {
        const n = next++;
        context.sentAt = performance.now();
        return { ...request, headers: call.headers(n), body: call.body?.(n) ?? request.body };
      },
      onResponse: (status: number, body: string, context: { sentAt?: number }) => {
        if (context.sentAt !== undefined) kindLatency.push(performance.now() - context.sentAt);
        kindStatuses[status] = (kindStatuses[status] ?? 0) + 1;
        if (status < 200 || status >= 300) return;
        const traceId = traceIdIn(body);
        if (traceId) traceIds.push(traceId);
        else untraced2xx++;
      },
    };
  });

  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        // autocannon takes an array of URLs (one per connection, round robin); its types say string.
        url: [...options.urls] as unknown as string,
        connections: options.connections,
        duration: options.durationSeconds,
        timeout: options.timeoutSeconds ?? 10,
        requests,
      },
      (error: unknown, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on("response", (_client, statusCode, _bytes, responseTime) => {
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
      latencies.push(responseTime);
    });
    instance.on("reqError", (error: Error & { code?: string }) => {
      errors.push({ atMs: Date.now() - started, code: error.code ?? error.message });
    });
  });
  const answered = latencies.length;
  return {
    durationSeconds: result.duration,
    sent: result.requests.sent,
    answered,
    requestsPerSecond: answered / result.duration,
    statuses,
    byKind,
    latencyByKind: Object.fromEntries(
      Object.entries(kindLatencies).map(([kind, ms]) => [kind, percentiles(ms)]),
    ),
    errors,
    timeouts: result.timeouts,
    latencyMs: percentiles(latencies),
    traceIds,
    untraced2xx,
  };
}

export const count5xx = (statuses: Record<number, number>) =>
  Object.entries(statuses)
    .filter(([status]) => Number(status) >= 500)
    .reduce((sum, [, n]) => sum + n, 0);

/**
 * One call of each entry of the mix on every instance, one after the other, so the measured load starts
 * on warm servers (route modules loaded, connections to the database and Redis open).
 */
export async function warmUp(urls: readonly string[], mix: readonly LoadCall[]): Promise<number> {
  let calls = 0;
  for (const url of urls) {
    for (const call of new Set(mix)) {
      const response = await fetch(`${url}${call.path}`, {
        method: call.method,
        headers: call.headers(0),
        body: call.body?.(0),
      });
      await response.arrayBuffer();
      calls++;
    }
  }
  return calls;
}
