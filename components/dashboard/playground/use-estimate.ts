"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { PlaygroundTool } from "@/lib/dashboard/playground-events";

/** What a call with the form's input would ask and the most it could cost (its `estimate: true`). */
interface Estimate {
  providers: string[];
  max_cost_usd: number;
}

export interface EstimateState {
  /** `none`: no estimate (nothing entered yet, or the input is not valid yet). */
  status: "none" | "pending" | "ready";
  /** The latest estimate, kept while the next one is on its way. */
  estimate?: Estimate;
}

/** Typing pauses this long before the estimate is asked for: one request per pause, not per key. */
const DEBOUNCE_MS = 400;

/**
 * The estimate beside a tool's Run button: asked for (POST /dashboard/playground/estimate) once the input
 * has not changed for DEBOUNCE_MS; a newer input aborts the older request, so the figure always matches
 * the form. An input the tool refuses shows none.
 */
export function useEstimate(tool: PlaygroundTool) {
  const [state, setState] = useState<EstimateState>({ status: "none" });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const inFlight = useRef<AbortController | null>(null);

  useEffect(
    () => () => {
      clearTimeout(timer.current);
      inFlight.current?.abort();
    },
    [],
  );

  const request = useCallback(
    (input: Record<string, unknown>) => {
      clearTimeout(timer.current);
      setState((s) => ({ ...s, status: "pending" }));
      timer.current = setTimeout(async () => {
        inFlight.current?.abort();
        const controller = new AbortController();
        inFlight.current = controller;
        try {
          const response = await fetch("/dashboard/playground/estimate", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ tool, input }),
            signal: controller.signal,
          });
          const body = (await response.json()) as { estimate?: Estimate };
          setState(
            response.ok && body.estimate ? { status: "ready", estimate: body.estimate } : { status: "none" },
          );
        } catch {
          if (!controller.signal.aborted) setState({ status: "none" });
        }
      }, DEBOUNCE_MS);
    },
    [tool],
  );

  return { estimate: state, request };
}
