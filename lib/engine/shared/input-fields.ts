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

// C0 controls and DEL, except tab, line feed and carriage return, which pasted text legitimately has.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/** A query: trimmed, 1–`maxChars` characters, no control characters (they only reach providers as garbage). */
export function queryField(maxChars: number, description: string) {
  return z
    .string()
    .trim()
    .min(1)
    .max(maxChars)
    .refine((query) => !CONTROL_CHARACTERS.test(query), "must not contain control characters")
    .describe(description);
}
