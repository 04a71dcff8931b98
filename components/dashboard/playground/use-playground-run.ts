"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type {
  PlaygroundError,
  PlaygroundEvent,
  PlaygroundResult,
  PlaygroundTool,
} from "@/lib/dashboard/playground-events";
import type { ProviderProgress } from "@/lib/pipeline/provider-attempts";

export interface RunState {
  status: "idle" | "running" | "done" | "failed";
  /** The tool of the run (null before the first). */
  tool: PlaygroundTool | null;
  /** Providers expected to report (for their "running" bars); fetch's waterfall is not known ahead. */
  expected: readonly string[];
  /** The input the call was run with (what a next page of a fetch keeps). */
  input: Readonly<Record<string, unknown>>;
  spans: readonly ProviderProgress[];
  startedAt: number;
  elapsedMs: number;
  result?: PlaygroundResult;
  error?: PlaygroundError;
}

const IDLE: RunState = {
  status: "idle",
  tool: null,
  expected: [],
  input: {},
  spans: [],
  startedAt: 0,
  elapsedMs: 0,
};

/** Yields each line of an NDJSON response body as it arrives. */
async function* lines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    const parts = buffer.split("\n");
    buffer = parts.pop() ?? "";
    yield* parts.filter(Boolean);
  }
  if (buffer.trim()) yield buffer;
}

/** Runs playground calls against the streaming endpoint, one at a time, and tracks their live state. */
export function usePlaygroundRun() {
  const [state, setState] = useState<RunState>(IDLE);
  const running = useRef<AbortController | null>(null);

  useEffect(() => {
    if (state.status !== "running") return;
    const timer = setInterval(
      () => setState((s) => ({ ...s, elapsedMs: performance.now() - s.startedAt })),
      100,
    );
    return () => clearInterval(timer);
  }, [state.status]);

  useEffect(() => () => running.current?.abort(), []);

  const apply = useCallback((event: PlaygroundEvent) => {
    setState((s) => {
      const elapsedMs = performance.now() - s.startedAt;
      if (event.type === "progress") return { ...s, spans: [...s.spans, event.span], elapsedMs };
      if (event.type === "error") return { ...s, status: "failed", error: event.error, elapsedMs };
      // The call's own spans replace the live ones: they include steps that are not reported live.
      const { type: _, spans, ...result } = event;
      return { ...s, status: "done", result, spans: spans.length > 0 ? spans : s.spans, elapsedMs };
    });
  }, []);

  const run = useCallback(
    async (tool: PlaygroundTool, input: Record<string, unknown>, expected: readonly string[]) => {
      running.current?.abort();
      const controller = new AbortController();
      running.current = controller;
      setState({ ...IDLE, status: "running", tool, expected, input, startedAt: performance.now() });
      try {
        const response = await fetch("/dashboard/playground/run", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ tool, input }),
          signal: controller.signal,
        });
        if (!response.ok || !response.body) {
          const body = (await response.json().catch(() => null)) as { error?: PlaygroundError } | null;
          apply({
            type: "error",
            error: body?.error ?? { code: "http_error", message: `HTTP ${response.status}` },
          });
          return;
        }
        for await (const line of lines(response.body)) apply(JSON.parse(line) as PlaygroundEvent);
        setState((s) =>
          s.status === "running"
            ? {
                ...s,
                status: "failed",
                error: { code: "network_error", message: "The connection closed before the result arrived." },
              }
            : s,
        );
      } catch (error) {
        if (controller.signal.aborted) return;
        apply({
          type: "error",
          error: { code: "network_error", message: error instanceof Error ? error.message : String(error) },
        });
      }
    },
    [apply],
  );

  return { state, run };
}
