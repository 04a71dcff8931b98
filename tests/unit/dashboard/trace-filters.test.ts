/** The traces page's filters from its query string: the form's "any" is no filter; every traced tool is one. */
import { describe, expect, it } from "vitest";
import { traceFilters } from "@/lib/dashboard/trace-search";
import { TRACED_TOOL_NAMES } from "@/lib/tools/table";

describe("traceFilters", () => {
  it("ignores the form's 'any' and names no tool is traced under", () => {
    expect(traceFilters.parse({ tool: "any", surface: "playground" })).toMatchObject({
      tool: undefined,
      surface: "playground",
    });
    expect(traceFilters.parse({ tool: "budget_status" }).tool).toBeUndefined();
  });

  it("takes every traced tool, crawl and research included", () => {
    for (const tool of TRACED_TOOL_NAMES) expect(traceFilters.parse({ tool }).tool).toBe(tool);
    expect(TRACED_TOOL_NAMES).toEqual(expect.arrayContaining(["crawl", "research"]));
  });
});
