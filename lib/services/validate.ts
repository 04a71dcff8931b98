import { z } from "zod";
import { ServiceError } from "./errors";

/** Validates a verb's input; failures become `invalid_input` with the issues as details. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => ({
      path: issue.path.join("."),
      message: issue.message,
    }));
    throw new ServiceError(
      "invalid_input",
      details.map((d) => `${d.path || "input"}: ${d.message}`).join("; "),
      details,
    );
  }
  return parsed.data;
}

/** `no_cache` on every tool's input. */
export const noCacheField = z
  .boolean()
  .optional()
  .describe("Skip the workspace's result cache and call the providers afresh");
