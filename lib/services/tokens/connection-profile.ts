import { z } from "zod";

const name = z.string().min(1).max(64);

/**
 * A connection profile as written (POST/PATCH /api/v1/tokens, the Connect page): its shape only. What it may
 * name is checked against the tool table by the rules the verbs are given (lib/tools/profile.ts).
 */
export const connectionProfileInput = z
  .strictObject({
    tools: z
      .array(name)
      .min(1, "names no tools: leave tools out to list every tool")
      .max(64)
      .optional()
      .describe("The tools it lists and may call, within its scopes; absent: every tool of its scopes"),
    defaults: z
      .record(name, z.record(name, z.unknown()))
      .optional()
      .describe(
        "Default arguments per tool, e.g. {web_search: {max_results: 5}}; a call's own arguments win",
      ),
  })
  .nullable()
  .describe("Which tools a connection lists, and their default arguments; null: none");
