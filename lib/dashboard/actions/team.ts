"use server";

import { refresh } from "next/cache";
import { toActionError } from "@/lib/dashboard/action-errors";
import type { ActionState } from "@/lib/dashboard/action-state";
import { baseUrl } from "@/lib/dashboard/base-url";
import { formText } from "@/lib/dashboard/form-data";
import { dashboardSession, userSystemContext } from "@/lib/dashboard/session";
import { log } from "@/lib/observability/logger";
import { ServiceError } from "@/lib/pipeline/errors";
import { acceptInvitation } from "@/lib/services/members/accept-invitation";
import { changeMember } from "@/lib/services/members/change-member";
import { emailInvitation, type InvitationEmailOutcome } from "@/lib/services/members/email-invitation";
import { inviteMember } from "@/lib/services/members/invite-member";
import { revokeInvitation } from "@/lib/services/members/revoke-invitation";

export interface Invitation {
  email: string;
  role: string;
  /** The one-time link to pass on; only its hash is stored. */
  link: string;
  /** Whether the link went out by email (SMTP configured), and why not when it failed. */
  sent: InvitationEmailOutcome;
}

type Role = "owner" | "admin" | "member";

export async function inviteMemberAction(
  _previous: ActionState<Invitation>,
  form: FormData,
): Promise<ActionState<Invitation>> {
  const { ctx } = await dashboardSession();
  try {
    const invitation = await inviteMember({
      ctx,
      input: { email: formText(form, "email") ?? "", role: formText(form, "role") as "admin" | "member" },
    });
    refresh(); // the pending invitations list it
    const base = await baseUrl();
    const sent = await emailInvitation({
      ctx,
      input: { id: invitation.id, secret: invitation.secret },
    }).catch((error: unknown): InvitationEmailOutcome => {
      // The invitation exists whatever went wrong here: the admin gets its link, and the log the error.
      log().error({ err: error }, "invitation email not attempted");
      return { status: "failed", to: invitation.email, reason: "the email could not be sent" };
    });
    return {
      status: "success",
      data: { email: invitation.email, role: invitation.role, link: `${base}${invitation.path}`, sent },
    };
  } catch (error) {
    return toActionError(error);
  }
}

export async function changeRoleAction(userId: string, role: Role): Promise<ActionState> {
  const { ctx } = await dashboardSession();
  try {
    await changeMember({ ctx, input: { userId, role } });
    refresh();
    return { status: "success", message: `Role changed to ${role}.` };
  } catch (error) {
    return toActionError(error);
  }
}

export async function removeMemberAction(userId: string): Promise<ActionState> {
  const { ctx } = await dashboardSession();
  try {
    await changeMember({ ctx, input: { userId, role: null } });
    refresh();
    return { status: "success", message: "Member removed." };
  } catch (error) {
    return toActionError(error);
  }
}

export async function revokeInvitationAction(id: string): Promise<ActionState> {
  const { ctx } = await dashboardSession();
  try {
    const revoked = await revokeInvitation({ ctx, input: { id } });
    refresh();
    return { status: "success", message: `Invitation of ${revoked.email} revoked.` };
  } catch (error) {
    return toActionError(error);
  }
}

export async function acceptInvitationAction(
  secret: string,
): Promise<ActionState<{ role: string; tenantId: string; alreadyMember: boolean }>> {
  const { session } = await dashboardSession();
  try {
    const joined = await acceptInvitation({
      ctx: await userSystemContext(),
      input: { secret, userId: session.user.id },
    });
    return {
      status: "success",
      data: { role: joined.role, tenantId: joined.tenantId, alreadyMember: joined.alreadyMember },
    };
  } catch (error) {
    if (error instanceof ServiceError && error.code === "not_found") {
      return {
        status: "error",
        message:
          "This link is invalid, already used or expired, or it was sent to another address than yours.",
      };
    }
    return toActionError(error);
  }
}
