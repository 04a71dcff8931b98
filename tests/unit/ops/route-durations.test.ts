/**
 * Platforms that cap a function's duration (Vercel) cut off a route at its `maxDuration`. Every route that
 * runs tools declares enough for the longest, a web search with grounded snippets (search up to 60 s, then
 * 20 pages, 5 at a time, up to 60 s each); so do the background jobs' routes.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const LONGEST_TOOL_S = 60 + 4 * 60;

const ROUTES = [
  "app/api/v1/[tool]/route.ts",
  "app/api/mcp/route.ts",
  "app/api/mcp/t/[token]/route.ts",
  "app/api/researcher/route.ts",
  "app/api/search/route.ts",
  "app/(dashboard)/dashboard/playground/run/route.ts",
  "app/api/cron/sweep-reservations/route.ts",
  "app/api/cron/prune-traces/route.ts",
  "app/api/cron/resume-research/route.ts",
  "app/api/v1/research/[id]/route.ts",
];

describe("maxDuration of long routes", () => {
  it.each(ROUTES)("%s lets the longest call finish", (file) => {
    const declared = /^export const maxDuration = (\d+);$/m.exec(readFileSync(file, "utf8"))?.[1];
    expect(Number(declared)).toBeGreaterThanOrEqual(LONGEST_TOOL_S);
  });
});
