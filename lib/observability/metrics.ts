/**
 * Prometheus metrics of this process (each instance is scraped on its own): tool calls, provider calls,
 * cache lookups, budget refusals, HTTP requests, breaker states, KV evictions and dropped queue records, plus Node's default process metrics
 * (RSS, heap, event-loop lag). Served by /api/metrics behind the operator token.
 *
 * Every label value comes from a fixed set, never from what a client sent: route templates, statuses,
 * tool names, surfaces, outcomes, and provider ids of the registries (unknown ids are refused as input
 * before any provider is attempted). A label from free input would add a series per value, forever.
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "searchmux_process_" });
  const registers = [registry];
  return {
    registry,
    toolCalls: new Counter({
      name: "searchmux_tool_calls_total",
      help: "Tool calls by tool, surface, status and whether the cache answered",
      labelNames: ["tool", "surface", "status", "cache_hit"] as const,
      registers,
    }),
    toolCallSeconds: new Histogram({
      name: "searchmux_tool_call_duration_seconds",
      help: "Tool call latency",
      labelNames: ["tool", "surface"] as const,
      buckets: SECONDS,
      registers,
    }),
    providerCalls: new Counter({
      name: "searchmux_provider_calls_total",
      help: "Provider attempts by provider, tool kind and outcome (skipped ones included)",
      labelNames: ["provider", "kind", "outcome"] as const,
      registers,
    }),
    providerCallSeconds: new Histogram({
      name: "searchmux_provider_call_duration_seconds",
      help: "Latency of provider attempts that reached the provider",
      labelNames: ["provider", "kind"] as const,
      buckets: SECONDS,
      registers,
    }),
    cacheLookups: new Counter({
      name: "searchmux_cache_lookups_total",
      help: "Result cache lookups by tool and result (hit or miss)",
      labelNames: ["tool", "result"] as const,
      registers,
    }),
    budgetRejections: new Counter({
      name: "searchmux_budget_rejections_total",
      help: "Provider calls refused because a budget was exhausted",
      labelNames: ["provider"] as const,
      registers,
    }),
    httpRequests: new Counter({
      name: "searchmux_http_requests_total",
      help: "Token-authenticated HTTP requests by route and status",
      labelNames: ["route", "status"] as const,
      registers,
    }),
    httpRequestSeconds: new Histogram({
      name: "searchmux_http_request_duration_seconds",
      help: "Latency of token-authenticated HTTP requests",
      labelNames: ["route"] as const,
      buckets: SECONDS,
      registers,
    }),
    kvEvictions: new Counter({
      name: "searchmux_kv_evictions_total",
      help: "Live keys the in-memory KV evicted to stay within SEARCHMUX_MEMORY_KV_MB",
      registers,
    }),
    dropped: new Counter({
      name: "searchmux_dropped_total",
      help: "Records dropped because their in-process queue was full (traces, usage)",
      labelNames: ["queue"] as const,
      registers,
    }),
    openBreakers: new Gauge({
      name: "searchmux_breakers",
      help: "Circuit breakers that are not closed, by provider and state",
      labelNames: ["provider", "state"] as const,
      registers,
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

// On globalThis: Next.js bundles routes separately, and a process has one set of metrics.
const shared = globalThis as typeof globalThis & { searchmuxMetrics?: Metrics };

export function metrics(): Metrics {
  shared.searchmuxMetrics ??= createMetrics();
  return shared.searchmuxMetrics;
}
