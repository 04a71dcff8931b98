import { z } from "zod";
import { invalidInputError } from "./input-issues";

/** Validates a verb's input; failures become `invalid_input` naming each field, with the issues as details. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw invalidInputError(parsed.error.issues);
  return parsed.data;
}

/** `no_cache` on every tool's input. */
export const noCacheField = z.boolean().optional();
