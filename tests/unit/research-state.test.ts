import { describe, expect, it } from "vitest";
import { stateOf } from "@/lib/services/research/research-state";

describe("stateOf", () => {
  it("reads a checkpoint's model spans in the trace's snake case as they are", () => {
    const span = {
      provider: "llm",
      kind: "llm" as const,
      start_offset_ms: 3,
      duration_ms: 40,
      status: 200,
      outcome: "ok" as const,
      cost_micros: 900,
    };
    expect(stateOf({ spans: [span] }).spans).toEqual([span]);
  });

  it("carries spans of checkpoints written in camel case into the trace's shape", () => {
    const state = stateOf({
      spans: [
        {
          provider: "llm",
          kind: "llm",
          startOffsetMs: 3,
          durationMs: 40,
          httpStatus: 429,
          outcome: "error",
          error: "rate limited",
          costMicros: 0,
        },
      ],
      cost_micros: 0,
    });
    expect(state.spans).toEqual([
      {
        provider: "llm",
        kind: "llm",
        start_offset_ms: 3,
        duration_ms: 40,
        status: 429,
        outcome: "error",
        error: "rate limited",
        cost_micros: 0,
      },
    ]);
  });

  it("fills what an empty checkpoint lacks", () => {
    expect(stateOf(null)).toEqual({ searches: {}, sub_calls: [], spans: [], cost_micros: 0 });
  });
});
