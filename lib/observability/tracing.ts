/**
 * OpenTelemetry export of tool calls: each recorded trace becomes a `searchmux.tool_call` span with one
 * child per provider attempt, timed as the trace was. Without a registered SDK (no
 * OTEL_EXPORTER_OTLP_ENDPOINT, see instrumentation.ts) the API is a no-op and this costs nothing. The
 * registered SDK redacts these spans like every other before export (span-redaction.ts).
 */
import { type Attributes, context as otelContext, SpanStatusCode, trace } from "@opentelemetry/api";

export interface ExportedCall {
  name: string;
  startedAt: Date;
  durationMs: number;
  error: boolean;
  attributes: Attributes;
  children: ReadonlyArray<{
    name: string;
    startOffsetMs: number;
    durationMs: number;
    error: boolean;
    attributes: Attributes;
  }>;
}

export function exportCall(call: ExportedCall): void {
  const tracer = trace.getTracer("searchmux");
  const start = call.startedAt.getTime();
  const root = tracer.startSpan(call.name, { startTime: start, attributes: call.attributes });
  if (!root.isRecording()) return;
  if (call.error) root.setStatus({ code: SpanStatusCode.ERROR });
  const parent = trace.setSpan(otelContext.active(), root);
  for (const child of call.children) {
    const span = tracer.startSpan(
      child.name,
      { startTime: start + child.startOffsetMs, attributes: child.attributes },
      parent,
    );
    if (child.error) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end(start + child.startOffsetMs + child.durationMs);
  }
  root.end(start + call.durationMs);
}
