"use server";

import { refresh } from "next/cache";
import { toActionError } from "@/lib/dashboard/action-errors";
import type { ActionState } from "@/lib/dashboard/action-state";
import { formNumber, formText } from "@/lib/dashboard/form-data";
import { formatCount, formatUsd } from "@/lib/dashboard/format";
import { dashboardSession } from "@/lib/dashboard/session";
import { deleteKey } from "@/lib/services/keys/delete-key";
import { setKey } from "@/lib/services/keys/set-key";
import { type KeyTestSpend, testKey } from "@/lib/services/keys/test-key";

/** The workspace model's settings, when the form asked for them (its dialog alone has a base URL field). */
function modelSettings(form: FormData) {
  if (!form.has("base_url")) return {};
  return {
    base_url: formText(form, "base_url"),
    model: formText(form, "model"),
    // Blank or not a number, the verb's schema names the field.
    price_per_mtok: {
      input: formNumber(form, "price_input") as number,
      output: formNumber(form, "price_output") as number,
    },
  };
}

export async function setKeyAction(
  provider: string,
  _previous: ActionState,
  form: FormData,
): Promise<ActionState> {
  const { ctx } = await dashboardSession();
  try {
    const stored = await setKey({
      ctx,
      input: { provider, key: formText(form, "key") ?? "", ...modelSettings(form) },
    });
    refresh();
    return {
      status: "success",
      message: `Key ending in ${stored.last4} saved. Test it to check the provider accepts it.`,
    };
  } catch (error) {
    // The key itself is never sent back to the form.
    return toActionError(error, "key");
  }
}

const VERDICT: Readonly<Record<string, string>> = {
  ok: "The provider accepted the key.",
  invalid: "The provider refused the key.",
};

/** What the test request cost the budgets, in words. */
function spentText({ requests, usd }: KeyTestSpend): string {
  if (requests === 0) return "Nothing was charged to its budget.";
  const cost = usd > 0 ? ` (${formatUsd(usd)})` : "";
  return `The test used ${formatCount(requests)} request${requests === 1 ? "" : "s"}${cost} of its budget.`;
}

export async function testKeyAction(provider: string): Promise<ActionState> {
  const { ctx } = await dashboardSession();
  try {
    const result = await testKey({ ctx, input: { provider } });
    refresh();
    const unknown = `The key could not be checked${result.reason ? ` (${result.reason.replaceAll("_", " ")})` : ""}.`;
    return {
      status: result.status === "ok" ? "success" : "error",
      message: `${VERDICT[result.status] ?? unknown} ${spentText(result.spent)}`,
    };
  } catch (error) {
    return toActionError(error);
  }
}

export async function deleteKeyAction(provider: string): Promise<ActionState> {
  const { ctx } = await dashboardSession();
  try {
    await deleteKey({ ctx, input: { provider } });
    refresh();
    return { status: "success", message: "Key deleted." };
  } catch (error) {
    return toActionError(error);
  }
}
