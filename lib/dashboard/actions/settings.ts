"use server";

import { refresh } from "next/cache";
import { toActionError } from "@/lib/dashboard/action-errors";
import type { ActionState } from "@/lib/dashboard/action-state";
import { formFlag, formNumber, formText } from "@/lib/dashboard/form-data";
import { dashboardSession } from "@/lib/dashboard/session";
import { deleteKey } from "@/lib/services/keys/delete-key";
import { listKeys } from "@/lib/services/keys/list-keys";
import { updateTenant } from "@/lib/services/tenants/update-tenant";
import { revokeAllTokens } from "@/lib/services/tokens/revoke-all-tokens";

/** Saves the fields the form filled in; a blank field keeps its current value. */
export async function updateSettingsAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const { ctx } = await dashboardSession();
  try {
    const saved = await updateTenant({
      ctx,
      input: {
        name: formText(form, "name"),
        traceRetentionDays: formNumber(form, "traceRetentionDays"),
        rateLimitRpm: formNumber(form, "rateLimitRpm"),
        // The form always shows the current value, so the box's state is the setting.
        groundedSnippets: formFlag(form, "groundedSnippets"),
        // Checked against the modes by the verb.
        defaultSearchMode: formText(form, "defaultSearchMode") as "fanout" | "auto" | "budget" | undefined,
      },
    });
    refresh();
    const limit =
      saved.rateLimitRpm === null
        ? "the operator's default rate limit"
        : `${saved.rateLimitRpm} requests per minute per token`;
    return {
      status: "success",
      message: `Saved. Traces are kept ${saved.traceRetentionDays} days; tokens get ${limit}; searches run in ${saved.defaultSearchMode} mode and ${saved.groundedSnippets ? "write" : "do not write"} grounded snippets unless a call says otherwise.`,
    };
  } catch (error) {
    return toActionError(error, "name");
  }
}

/** Revokes every live token of the workspace at once (an audit row each). */
export async function revokeAllTokensAction(): Promise<ActionState> {
  const { ctx } = await dashboardSession();
  try {
    const { revoked } = await revokeAllTokens({ ctx });
    refresh();
    return { status: "success", message: `${revoked} tokens revoked.` };
  } catch (error) {
    return toActionError(error);
  }
}

/** Deletes every provider key the workspace stored, one verb call (and audit row) each. */
export async function deleteAllKeysAction(): Promise<ActionState> {
  const { ctx } = await dashboardSession();
  try {
    const keys = await listKeys({ ctx });
    for (const key of keys) await deleteKey({ ctx, input: { provider: key.provider } });
    refresh();
    return { status: "success", message: `${keys.length} keys deleted.` };
  } catch (error) {
    return toActionError(error);
  }
}
