"use server";

import { refresh } from "next/cache";
import { toActionError } from "@/lib/dashboard/action-errors";
import type { ActionState } from "@/lib/dashboard/action-state";
import { formList, formText } from "@/lib/dashboard/form-data";
import { dashboardSession } from "@/lib/dashboard/session";
import type { Scope } from "@/lib/pipeline/context";
import { createToken } from "@/lib/services/tokens/create-token";
import { listTokens } from "@/lib/services/tokens/list-tokens";
import { revokeToken } from "@/lib/services/tokens/revoke-token";
import { profileRules } from "@/lib/tools/profile";

/** A token's secret, in the one answer that ever carries it. */
export interface NewToken {
  id: string;
  name: string;
  token: string;
}

const DAY_MS = 86_400_000;

/** The expiry the form asks for: never, a number of days from now, or a date (end of that UTC day). */
function expiryFrom(form: FormData, now: Date): string | Date | undefined {
  const choice = formText(form, "expires") ?? "never";
  if (choice === "never") return undefined;
  if (choice === "custom") {
    return `${formText(form, "expiresOn")}T23:59:59Z`;
  }
  return new Date(now.getTime() + Number(choice) * DAY_MS);
}

export async function createTokenAction(
  _previous: ActionState<NewToken>,
  form: FormData,
): Promise<ActionState<NewToken>> {
  const { ctx } = await dashboardSession();
  if (formText(form, "expires") === "custom" && !formText(form, "expiresOn")) {
    return {
      status: "error",
      fieldErrors: { expiresAt: "Choose the day it expires." },
    };
  }
  try {
    const created = await createToken({
      ctx,
      input: {
        name: formText(form, "name") ?? "",
        scopes: formList(form, "scopes") as Scope[],
        expiresAt: expiryFrom(form, ctx.now()),
      },
    });
    refresh();
    return { status: "success", data: { id: created.id, name: created.name, token: created.token } };
  } catch (error) {
    return toActionError(error, "expiresAt");
  }
}

/**
 * A new token with the old one's name, scopes, profile and (future) expiry, then the old one revoked: clients
 * switch to the new secret, and the old one stops working within seconds.
 */
export async function rotateTokenAction(id: string): Promise<ActionState<NewToken>> {
  const { ctx } = await dashboardSession();
  try {
    const old = (await listTokens({ ctx })).find((token) => token.id === id && token.revokedAt === null);
    if (!old) return { status: "error", message: "That token no longer exists or is already revoked." };
    const expiresAt = old.expiresAt && old.expiresAt > ctx.now() ? old.expiresAt : undefined;
    const created = await createToken({
      ctx,
      input: { name: old.name, scopes: old.scopes as Scope[], expiresAt, profile: old.profile },
      replaces: id,
      profiles: profileRules,
    });
    await revokeToken({ ctx, input: { id } });
    refresh();
    return { status: "success", data: { id: created.id, name: created.name, token: created.token } };
  } catch (error) {
    return toActionError(error);
  }
}

export async function revokeTokenAction(id: string): Promise<ActionState> {
  const { ctx } = await dashboardSession();
  try {
    await revokeToken({ ctx, input: { id } });
    refresh();
    return { status: "success", message: "Token revoked." };
  } catch (error) {
    return toActionError(error);
  }
}
