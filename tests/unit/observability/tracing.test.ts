import { trace } from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterAll, describe, expect, it } from "vitest";
import { exportCall } from "@/lib/observability/tracing";

describe("OpenTelemetry export", () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  afterAll(() => trace.disable());

  it("is a no-op without a registered SDK", () => {
    exportCall({
      name: "noop",
      startedAt: new Date(),
      durationMs: 1,
      error: false,
      attributes: {},
      children: [],
    });
    expect(exporter.getFinishedSpans()).toHaveLength(0);
  });

  it("exports a tool call with one child per provider attempt, timed as traced", () => {
    trace.setGlobalTracerProvider(provider);
    const startedAt = new Date("2026-11-22T10:00:00.000Z");
    exportCall({
      name: "searchmux.tool_call",
      startedAt,
      durationMs: 250,
      error: false,
      attributes: { "searchmux.tool": "web_search" },
      children: [
        {
          name: "searchmux.provider.search",
          startOffsetMs: 5,
          durationMs: 200,
          error: false,
          attributes: { "searchmux.provider": "brave" },
        },
        {
          name: "searchmux.provider.search",
          startOffsetMs: 6,
          durationMs: 240,
          error: true,
          attributes: { "searchmux.provider": "exa" },
        },
      ],
    });
    const spans = exporter.getFinishedSpans();
    const root = spans.find((s) => s.name === "searchmux.tool_call");
    const children = spans.filter((s) => s.name === "searchmux.provider.search");
    expect(root?.attributes["searchmux.tool"]).toBe("web_search");
    expect(children).toHaveLength(2);
    for (const child of children) {
      expect(child.spanContext().traceId).toBe(root?.spanContext().traceId);
      expect(child.parentSpanContext?.spanId).toBe(root?.spanContext().spanId);
    }
    const exa = children.find((s) => s.attributes["searchmux.provider"] === "exa");
    expect(exa?.status.code).toBe(2); // ERROR
    const ms = ([s, ns]: [number, number]) => s * 1000 + ns / 1e6;
    expect(ms(root?.startTime ?? [0, 0])).toBe(startedAt.getTime());
    expect(ms(root?.duration ?? [0, 0])).toBeCloseTo(250, 0);
    expect(ms(exa?.startTime ?? [0, 0]) - startedAt.getTime()).toBeCloseTo(6, 0);
  });
});
