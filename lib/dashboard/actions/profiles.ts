"use server";

import { refresh } from "next/cache";
import { toActionError } from "@/lib/dashboard/action-errors";
import type { ActionState } from "@/lib/dashboard/action-state";
import { formList, formText } from "@/lib/dashboard/form-data";
import { dashboardSession } from "@/lib/dashboard/session";
import type { ConnectionProfile } from "@/lib/db/schema";
import { setConnectedAppProfile } from "@/lib/services/oauth/set-connected-app-profile";
import { setTokenProfile } from "@/lib/services/tokens/set-token-profile";
import { profileRules } from "@/lib/tools/profile";

/** The profile editor's form as a profile: the checked tools (none named when all are), defaults as JSON. */
function profileOf(form: FormData): ConnectionProfile | ActionState {
  const tools = formText(form, "allTools") === "1" ? undefined : formList(form, "tools");
  const written = formText(form, "defaults")?.trim();
  let defaults: ConnectionProfile["defaults"];
  try {
    defaults = written ? JSON.parse(written) : undefined;
  } catch {
    return { status: "error", fieldErrors: { defaults: "Not JSON: write an object per tool." } };
  }
  return { ...(tools && { tools }), ...(defaults && { defaults }) };
}

const isActionState = (value: ConnectionProfile | ActionState): value is ActionState => "status" in value;

async function saved(write: (profile: ConnectionProfile) => Promise<unknown>, form: FormData) {
  const profile = profileOf(form);
  if (isActionState(profile)) return profile;
  try {
    await write(profile);
    refresh();
    return { status: "success", message: "Profile saved." } satisfies ActionState;
  } catch (error) {
    return toActionError(error, "defaults");
  }
}

export async function setTokenProfileAction(id: string, _previous: ActionState, form: FormData) {
  const { ctx } = await dashboardSession();
  return saved((profile) => setTokenProfile({ ctx, input: { id, profile }, profiles: profileRules }), form);
}

export async function setConnectedAppProfileAction(id: string, _previous: ActionState, form: FormData) {
  const { ctx } = await dashboardSession();
  return saved(
    (profile) => setConnectedAppProfile({ ctx, input: { id, profile }, profiles: profileRules }),
    form,
  );
}
