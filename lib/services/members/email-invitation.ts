import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { type MailSettings, mailSettings } from "@/lib/config";
import { invitations, users } from "@/lib/db/schema";
import { type MailFailure, sendMail } from "@/lib/mail/send-mail";
import { log } from "@/lib/observability/logger";
import { writeAudit } from "@/lib/pipeline/audit";
import { actingUserId, assertScope, type TenantContext, type VerbArgs } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { slidingWindow } from "@/lib/pipeline/rate-limit/sliding-window";
import { parseInput } from "@/lib/pipeline/validate";
import { hashToken } from "@/lib/services/tokens/token-format";
import { type InvitationEmailFacts, invitationEmail } from "./invitation-email";
import { pendingInvitations } from "./revoke-pending-invitations";

/** Invitation emails one workspace may send per hour, sent or not: inviting must not be a way to spam. */
export const INVITATION_EMAILS_PER_WORKSPACE_HOUR = 20;
/** Invitation emails one address may be sent per day, from all workspaces together. */
export const INVITATION_EMAILS_PER_RECIPIENT_DAY = 5;

export const emailInvitationInput = z.strictObject({
  id: z.uuid(),
  /** The invitation's secret, known only to whoever just created it: only that caller can mail its link. */
  secret: z.string().min(16).max(200),
});

/**
 * Where an emailed link points: the deployment's configured public URL (AUTH_URL), never the host a request
 * named. Without it no link is mailed: a Host header a proxy passes on unchecked would otherwise send the
 * invited person, trusting this deployment's email, to any site.
 */
const NO_PUBLIC_URL = "the deployment's public URL (AUTH_URL) is not set, so no link is emailed";

export type InvitationEmailOutcome =
  | { status: "sent"; to: string }
  /** No SMTP_URL and EMAIL_FROM: the link is passed on by hand. */
  | { status: "not_configured" }
  | {
      status: "failed";
      to: string;
      reason:
        | MailFailure
        | "too many invitation emails; try again later"
        | "the email could not be sent"
        | typeof NO_PUBLIC_URL;
    };

/**
 * Mails a pending invitation's link to the invited address, when SMTP is configured. The invitation stays
 * whatever happens here: a failure is an outcome with a short reason (never the server's reply or the SMTP
 * URL), for the dashboard to show beside the link. Each attempt counts toward the workspace's hourly and the
 * address's daily allowance (KV counters, atomic across instances) and gets an audit row.
 */
export async function emailInvitation({
  ctx,
  input,
}: VerbArgs<TenantContext, typeof emailInvitationInput>): Promise<InvitationEmailOutcome> {
  assertScope(ctx, "admin");
  const { id, secret } = parseInput(emailInvitationInput, input);
  const settings = mailSettings(ctx.env);
  if (!settings) return { status: "not_configured" };
  const baseUrl = ctx.env.AUTH_URL?.trim().replace(/\/$/, "");
  const [invitation] = await ctx.db.withTenant(ctx.tenantId, (tx) =>
    tx
      .select({ email: invitations.email, role: invitations.role, expiresAt: invitations.expiresAt })
      .from(invitations)
      .where(
        and(pendingInvitations(ctx), eq(invitations.id, id), eq(invitations.tokenHash, hashToken(secret))),
      ),
  );
  if (!invitation) throw new ServiceError("not_found", "invitation not found or expired");
  const to = invitation.email;
  const outcome: InvitationEmailOutcome = baseUrl
    ? await sendWithinAllowance(ctx, settings, { ...invitation, to, link: `${baseUrl}/invite/${secret}` })
    : { status: "failed", to, reason: NO_PUBLIC_URL };
  await ctx.db.withTenant(ctx.tenantId, (tx) =>
    writeAudit(tx, {
      tenantId: ctx.tenantId,
      actor: ctx.actor,
      action: "member.invite_email",
      targetType: "invitation",
      targetId: id,
      details: {
        email: to,
        sent: outcome.status === "sent",
        ...(outcome.status === "failed" ? { reason: outcome.reason } : {}),
      },
    }),
  );
  return outcome;
}

async function sendWithinAllowance(
  ctx: TenantContext,
  settings: MailSettings,
  facts: Omit<InvitationEmailFacts, "inviter">,
): Promise<InvitationEmailOutcome> {
  const allowance = await withinAllowance(ctx, facts.to);
  if (allowance !== "ok") return { status: "failed", to: facts.to, reason: ALLOWANCE_REASONS[allowance] };
  return send(ctx, settings, facts);
}

const ALLOWANCE_REASONS = {
  exceeded: "too many invitation emails; try again later",
  // Without the counters nothing bounds the sending: no email then, the link is shown instead.
  unavailable: "the email could not be sent",
} as const;

/** Counts one email toward the workspace's and the address's allowances, workspace first. */
async function withinAllowance(
  ctx: TenantContext,
  to: string,
): Promise<"ok" | keyof typeof ALLOWANCE_REASONS> {
  const now = ctx.now().getTime();
  // The address is hashed: KV keys are listed by operators and must not be a list of who was invited.
  const recipient = createHash("sha256").update(to).digest("base64url");
  try {
    const workspace = await slidingWindow(
      ctx.kv,
      `invitation-email:${ctx.tenantId}`,
      INVITATION_EMAILS_PER_WORKSPACE_HOUR,
      3600,
      now,
    );
    if (!workspace.ok) return "exceeded";
    const address = await slidingWindow(
      ctx.kv,
      `invitation-email-to:${recipient}`,
      INVITATION_EMAILS_PER_RECIPIENT_DAY,
      86_400,
      now,
    );
    return address.ok ? "ok" : "exceeded";
  } catch {
    return "unavailable";
  }
}

async function send(
  ctx: TenantContext,
  settings: MailSettings,
  facts: Omit<InvitationEmailFacts, "inviter">,
): Promise<InvitationEmailOutcome> {
  const inviterId = actingUserId(ctx.actor);
  const [inviter] = inviterId
    ? await ctx.db.withTenant(ctx.tenantId, (tx) =>
        tx.select({ email: users.email }).from(users).where(eq(users.id, inviterId)),
      )
    : [];
  const result = await sendMail(settings, invitationEmail({ ...facts, inviter: inviter?.email ?? null }));
  if (result.sent) return { status: "sent", to: facts.to };
  log().warn({ tenantId: ctx.tenantId, code: result.code }, `invitation email not sent: ${result.failure}`);
  return { status: "failed", to: facts.to, reason: result.failure };
}
