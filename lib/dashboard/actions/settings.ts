"use server";

import { refresh } from "next/cache";
import { deleteKey } from "@/lib/services/keys/delete-key";
import { listKeys } from "@/lib/services/keys/list-keys";
import { updateTenant } from "@/lib/services/tenants/update-tenant";
import { listTokens } from "@/lib/services/tokens/list-tokens";
import { revokeToken } from "@/lib/services/tokens/revoke-token";
import { toActionError } from "../action-errors";
import type { ActionState } from "../action-state";
import { formNumber, formText } from "../form-data";
import { dashboardSession } from "../session";

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
      },
    });
    refresh();
    const limit =
      saved.rateLimitRpm === null
        ? "the operator's default rate limit"
        : `${saved.rateLimitRpm} requests per minute per token`;
    return {
      status: "success",
      message: `Saved. Traces are kept ${saved.traceRetentionDays} days; tokens get ${limit}.`,
    };
  } catch (error) {
    return toActionError(error, "name");
  }
}

/** Revokes every live token of the workspace, one verb call (and audit row) each. */
export async function revokeAllTokensAction(): Promise<ActionState> {
  const { ctx } = await dashboardSession();
  try {
    const live = (await listTokens({ ctx })).filter((token) => token.revokedAt === null);
    for (const token of live) await revokeToken({ ctx, input: { id: token.id } });
    refresh();
    return { status: "success", message: `${live.length} tokens revoked.` };
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
