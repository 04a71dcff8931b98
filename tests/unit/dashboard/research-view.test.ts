import { describe, expect, it } from "vitest";
import { reportForDisplay, stepOf } from "@/lib/dashboard/research-view";
import { describeSummary, researchSummary } from "@/lib/dashboard/trace-summary";

describe("reportForDisplay", () => {
  it("drops the report's own sources list, which the playground shows apart, and keeps its markers", () => {
    const report = [
      "# Why?",
      "- First claim [1].",
      "## Sources",
      "1. [One](https://a.example/one) — found by brave #1",
    ].join("\n\n");
    expect(reportForDisplay(report)).toBe("# Why?\n\n- First claim [1].\n");
  });

  it("keeps a report without a sources list whole", () => {
    expect(reportForDisplay("# Q\n\nNothing was found.\n")).toBe("# Q\n\nNothing was found.\n");
  });
});

describe("the job's words", () => {
  it("says which step runs", () => {
    expect(stepOf({ phase: "searching", message: "", done: 2, total: 6 })).toBe("step 3 of 6");
    expect(stepOf({ phase: "done", message: "", done: 6, total: 6 })).toBe("step 6 of 6");
    expect(stepOf({ phase: "queued", message: "", done: 0, total: 0 })).toBe("");
  });
});

describe("a research trace's summary", () => {
  const summary = {
    job_id: "job",
    planner: "variants",
    queries: ["a", "b"],
    pages: [{ url: "https://a.example/" }, { url: "https://b.example/", error: "http_error" }, { nope: 1 }],
    sub_calls: [
      {
        tool: "web_search",
        trace_id: "t1",
        label: "a",
        status: "ok",
        duration_ms: 5,
        cache_hit: false,
        cost_micros: 0,
      },
      { tool: "fetch" },
    ],
    stop_reason: "cost_limit",
    cost_micros: 10,
  };

  it("reads the sub-calls, searches and pages, skipping malformed entries", () => {
    const research = researchSummary("research", summary);
    expect(research?.subCalls.map((call) => call.trace_id)).toEqual(["t1"]);
    expect(research?.pages).toEqual([
      { url: "https://a.example/" },
      { url: "https://b.example/", error: "http_error" },
    ]);
    expect(research?.queries).toEqual(["a", "b"]);
    expect(research?.stopReason).toBe("cost_limit");
    expect(researchSummary("web_search", summary)).toBeNull();
  });

  it("is one line in the trace list", () => {
    expect(describeSummary(summary)).toBe("2 searches · 3 pages · 2 sub-calls · stopped early: cost limit");
  });
});
