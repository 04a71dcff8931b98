"use server";

import { refresh } from "next/cache";
import { toActionError } from "@/lib/dashboard/action-errors";
import type { ActionState } from "@/lib/dashboard/action-state";
import { budgetLabel } from "@/lib/dashboard/budgets";
import { formNumber, formText } from "@/lib/dashboard/form-data";
import { dashboardSession } from "@/lib/dashboard/session";
import { deleteBudget } from "@/lib/services/budgets/delete-budget";
import { setBudget } from "@/lib/services/budgets/set-budget";

export async function setBudgetAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const { ctx } = await dashboardSession();
  const period = formText(form, "period");
  try {
    const budget = await setBudget({
      ctx,
      input: {
        provider: formText(form, "provider") ?? "",
        metric: formText(form, "metric") as "requests" | "usd",
        period: period as "day" | "month" | "lifetime",
        limit: formNumber(form, "limit") as number,
        soft: formNumber(form, "soft"),
        // The anchor day only means something for monthly budgets; the field stays in the form otherwise.
        anchorDay: period === "month" ? formNumber(form, "anchorDay") : undefined,
      },
    });
    refresh();
    return { status: "success", message: `Saved: ${budgetLabel(budget)}.` };
  } catch (error) {
    return toActionError(error, "provider");
  }
}

export async function deleteBudgetAction(id: string): Promise<ActionState> {
  const { ctx } = await dashboardSession();
  try {
    await deleteBudget({ ctx, input: { id } });
    refresh();
    return { status: "success", message: "Budget deleted." };
  } catch (error) {
    return toActionError(error);
  }
}
