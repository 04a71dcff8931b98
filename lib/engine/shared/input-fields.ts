/**
 * zod fields every tool's input shares. Numbers out of range are clamped rather than rejected (agents
 * often ask for 100 results or a 5-minute deadline); the schema and the description state the bounds.
 */
import { z } from "zod";

/**
 * A whole number clamped into [min, max] rather than refused; 0 and negative numbers are refused. The JSON
 * Schema (OpenAPI, MCP) states the range it honours, so a client that keeps to the document is never clamped.
 */
export function clampedInteger(bounds: { min: number; max: number; defaultValue: number }) {
  return z
    .number()
    .int()
    .min(1)
    .default(bounds.defaultValue)
    .transform((n) => Math.min(Math.max(n, bounds.min), bounds.max))
    .meta({ minimum: bounds.min, maximum: bounds.max });
}

/**
 * `timeout_ms`: the overall deadline, defaulted and clamped to [min, max]. Descriptions of fields name what
 * the schema does not say: its default and range are in the JSON Schema already (every byte of a tool list
 * is paid for in every model's context, docs/decisions.md "A small tool list").
 */
export function deadlineField(bounds: { defaultMs: number; minMs: number; maxMs: number }, detail?: string) {
  const field = clampedInteger({ min: bounds.minMs, max: bounds.maxMs, defaultValue: bounds.defaultMs });
  return detail ? field.describe(detail) : field;
}

/** `max_results`: defaulted and capped; described when its name does not say what it counts. */
export function resultCountField(bounds: { defaultCount: number; cap: number }, what?: string) {
  const field = clampedInteger({ min: 1, max: bounds.cap, defaultValue: bounds.defaultCount });
  return what ? field.describe(what) : field;
}

// C0 controls and DEL, except tab, line feed and carriage return, which pasted text legitimately has.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/**
 * A query: trimmed, 1–`maxChars` characters, no control characters (they only reach providers as garbage).
 * Without a description where a field around it says what it is (a list of queries).
 */
export function queryField(maxChars: number, description?: string) {
  const field = z
    .string()
    .trim()
    .min(1)
    .max(maxChars)
    .refine((query) => !CONTROL_CHARACTERS.test(query), "must not contain control characters");
  return description === undefined ? field : field.describe(description);
}
