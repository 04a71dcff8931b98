/**
 * The workspace's settings as the REST API names them (snake_case, like every field of the API):
 * `GET /api/v1/settings` and `PATCH /api/v1/settings`, both for admins. The change itself, its checks
 * and its audit row are updateTenant's; these verbs only translate.
 */
import { z } from "zod";
import { defaultSearchMode } from "@/lib/db/schema";
import { assertScope, type TenantContext, type VerbArgs } from "@/lib/pipeline/context";
import { parseInput } from "@/lib/pipeline/validate";
import { getTenant } from "./get-tenant";
import { updateTenant } from "./update-tenant";

export const workspaceSettingsInput = z
  .strictObject({
    name: z.string().trim().min(1).max(100).optional().describe("The workspace's name"),
    rate_limit_rpm: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .nullable()
      .optional()
      .describe(
        "Requests per minute per token, at most the operator's ceiling; null: the operator's default",
      ),
    trace_retention_days: z.number().int().min(1).max(3650).optional().describe("Days traces are kept"),
    grounded_snippets: z
      .boolean()
      .optional()
      .describe("web_search writes grounded snippets unless a call sets grounded_snippets itself"),
    default_search_mode: z
      .enum(defaultSearchMode.enumValues)
      .optional()
      .describe("The mode of a web_search that names neither mode nor providers"),
  })
  .refine((v) => Object.values(v).some((value) => value !== undefined), { message: "nothing to change" });

type Tenant = Pick<
  Awaited<ReturnType<typeof getTenant>>,
  "name" | "rateLimitRpm" | "traceRetentionDays" | "groundedSnippets" | "defaultSearchMode"
>;

const settingsOf = (tenant: Tenant) => ({
  name: tenant.name,
  rate_limit_rpm: tenant.rateLimitRpm,
  trace_retention_days: tenant.traceRetentionDays,
  grounded_snippets: tenant.groundedSnippets,
  default_search_mode: tenant.defaultSearchMode,
});

export type WorkspaceSettings = ReturnType<typeof settingsOf>;

export async function workspaceSettings({ ctx }: { ctx: TenantContext }): Promise<WorkspaceSettings> {
  assertScope(ctx, "admin");
  return settingsOf(await getTenant({ ctx }));
}

export async function updateWorkspaceSettings({
  ctx,
  input,
}: VerbArgs<TenantContext, typeof workspaceSettingsInput>): Promise<WorkspaceSettings> {
  assertScope(ctx, "admin");
  const changes = parseInput(workspaceSettingsInput, input);
  const updated = await updateTenant({
    ctx,
    input: {
      name: changes.name,
      rateLimitRpm: changes.rate_limit_rpm,
      traceRetentionDays: changes.trace_retention_days,
      groundedSnippets: changes.grounded_snippets,
      defaultSearchMode: changes.default_search_mode,
    },
  });
  return settingsOf(updated);
}
