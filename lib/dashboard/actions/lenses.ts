"use server";

import { refresh } from "next/cache";
import { toActionError } from "@/lib/dashboard/action-errors";
import type { ActionState } from "@/lib/dashboard/action-state";
import { formText } from "@/lib/dashboard/form-data";
import { dashboardSession } from "@/lib/dashboard/session";
import { deleteLens } from "@/lib/services/lenses/delete-lens";
import { setLens } from "@/lib/services/lenses/set-lens";
import { plural } from "@/lib/wording";

/** Creates or replaces one of the workspace's lenses; domains are comma- or space-separated. */
export async function saveLensAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const { ctx } = await dashboardSession();
  try {
    const timeRange = formText(form, "time_range");
    const lens = await setLens({
      ctx,
      input: {
        name: formText(form, "name") ?? "",
        description: formText(form, "description"),
        domains: (formText(form, "domains") ?? "").split(/[\s,]+/).filter(Boolean),
        time_range: timeRange === "any" ? undefined : (timeRange as "day" | "week" | "month" | "year"),
      },
    });
    refresh();
    return {
      status: "success",
      message: `Lens "${lens.name}" saved with ${plural(lens.domains.length, "domain")}.`,
    };
  } catch (error) {
    return toActionError(error);
  }
}

export async function deleteLensAction(name: string): Promise<ActionState> {
  const { ctx } = await dashboardSession();
  try {
    await deleteLens({ ctx, input: { name } });
    refresh();
    return { status: "success", message: `Lens "${name}" deleted.` };
  } catch (error) {
    return toActionError(error);
  }
}
