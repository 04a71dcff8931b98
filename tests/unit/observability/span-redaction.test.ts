import { SpanStatusCode, trace } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { redactingSpanProcessor } from "@/lib/observability/span-redaction";
import { exportCall } from "@/lib/observability/tracing";
import { generateToken } from "@/lib/services/tokens/token-format";

/**
 * The processor ahead of an exporting one, as instrumentation.ts orders them: what the exporter receives
 * is the redacted span (tests/reliability/otel-export.test.ts shows it with @vercel/otel and next start).
 */
describe("span redaction", () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: [redactingSpanProcessor, new SimpleSpanProcessor(exporter)],
  });
  const token = generateToken();
  beforeEach(() => exporter.reset());
  afterAll(() => trace.disable());

  it("redacts the name, attributes, events, links and status message, set at start or later", () => {
    const tracer = provider.getTracer("test");
    const linked = tracer.startSpan("linked");
    linked.end();
    const span = tracer.startSpan(`GET /api/mcp/t/${token}`, {
      attributes: { "http.target": `/api/mcp/t/${token}`, "http.method": "GET" },
      links: [{ context: linked.spanContext(), attributes: { "url.full": `https://x/?api_key=${token}` } }],
    });
    span.setAttribute("url.query", `query=rust&api_key=${token}`);
    span.setAttribute("http.request.header.authorization", "Bearer not-a-smx-token-123");
    span.setAttribute("url.path", ["/invite/abcdefghijklmnopqrstuvwxyz012345"]);
    span.addEvent("exception", { "exception.message": `refused ${token}` });
    span.setStatus({ code: SpanStatusCode.ERROR, message: `401 for /api/mcp/t/${token}` });
    span.end();

    const exported = exporter.getFinishedSpans().at(-1);
    expect(exported?.name).toBe("GET /api/mcp/t/[redacted]");
    expect(exported?.attributes).toEqual({
      "http.target": "/api/mcp/t/[redacted]",
      "http.method": "GET",
      "url.query": "query=rust&api_key=[redacted]",
      "http.request.header.authorization": "[redacted]",
      "url.path": ["/invite/[redacted]"],
    });
    expect(exported?.events[0]?.attributes).toEqual({ "exception.message": "refused [redacted]" });
    expect(exported?.links[0]?.attributes).toEqual({ "url.full": "https://x/?api_key=[redacted]" });
    expect(exported?.status).toEqual({
      code: SpanStatusCode.ERROR,
      message: "401 for /api/mcp/t/[redacted]",
    });
  });

  it("redacts our own tool-call spans on the same path", () => {
    trace.setGlobalTracerProvider(provider);
    exportCall({
      name: "searchmux.tool_call",
      startedAt: new Date(),
      durationMs: 10,
      error: false,
      attributes: { "searchmux.tool": "web_search", "searchmux.note": `called with ${token}` },
      children: [],
    });
    const [exported] = exporter.getFinishedSpans();
    expect(exported?.attributes).toEqual({
      "searchmux.tool": "web_search",
      "searchmux.note": "called with [redacted]",
    });
  });
});
