/**
 * zod fields every tool's input shares. Numbers out of range are clamped rather than rejected (agents
 * often ask for 100 results or a 5-minute deadline); the description states the bounds for MCP clients.
 */
import { z } from "zod";

/** `timeout_ms`: the overall deadline, defaulted and clamped to [min, max]. */
export function deadlineField(bounds: { defaultMs: number; minMs: number; maxMs: number }, detail = "") {
  return z
    .number()
    .int()
    .positive()
    .default(bounds.defaultMs)
    .transform((ms) => Math.min(Math.max(ms, bounds.minMs), bounds.maxMs))
    .describe(
      `Overall deadline in ms (default ${bounds.defaultMs}, clamped to ${bounds.minMs}–${bounds.maxMs})${detail}`,
    );
}

/** `max_results`: defaulted and capped. */
export function resultCountField(bounds: { defaultCount: number; cap: number }, what: string) {
  return z
    .number()
    .int()
    .positive()
    .default(bounds.defaultCount)
    .transform((n) => Math.min(n, bounds.cap))
    .describe(`Number of ${what} (default ${bounds.defaultCount}, capped at ${bounds.cap})`);
}
