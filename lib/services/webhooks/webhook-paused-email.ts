/**
 * Tells a workspace's owners and admins that one of its webhooks was paused, by email when the deployment
 * sends mail (SMTP_URL and EMAIL_FROM, as invitations do: lib/mail/send-mail.ts). Fixed wording and facts the
 * workspace cannot dress up (the webhook's host, the count, the last error's class): the URL's path and the
 * receiver's answers are left out, as the workspace's name is from invitation emails. Once per pause, which
 * takes PAUSE_AFTER_FAILURES failures over an hour and a successful test to undo: it cannot be a way to spam.
 */
import { and, eq, inArray } from "drizzle-orm";
import { mailSettings } from "@/lib/config";
import type { Database } from "@/lib/db";
import { memberships, users } from "@/lib/db/schema";
import { type MailMessage, sendMail } from "@/lib/mail/send-mail";
import { log } from "@/lib/observability/logger";
import type { Env } from "@/lib/pipeline/capabilities";
import { PAUSE_AFTER_FAILURES } from "./webhook-health";

/** Recipients of one notice at most: the workspace's first owners and admins. */
const MAX_RECIPIENTS = 20;

function webhookPausedEmail(to: string, webhookUrl: string): MailMessage {
  const host = new URL(webhookUrl).host.replace(/[&<>"']/g, "");
  const lines = [
    `A webhook of your Searchmux workspace, to ${host}, was paused: its last ${PAUSE_AFTER_FAILURES} deliveries failed over more than an hour.`,
    "No event is sent to it while it is paused. Fix the receiver, then send it a test event from the Webhooks page: its first success resumes it.",
  ];
  return {
    to,
    subject: "A Searchmux webhook was paused",
    text: `${lines.join("\n\n")}\n`,
    html: lines.map((line) => `<p>${line}</p>`).join("\n"),
  };
}

/** Mails the notice to each owner and admin; a failure is logged, the pause stands whatever happens here. */
export async function mailWebhookPaused(
  ctx: { db: Database; env: Env },
  webhook: { tenantId: string; url: string },
): Promise<void> {
  const settings = mailSettings(ctx.env);
  if (!settings) return;
  const admins = await ctx.db.withSystem((tx) =>
    tx
      .select({ email: users.email })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.tenantId, webhook.tenantId), inArray(memberships.role, ["owner", "admin"])))
      .limit(MAX_RECIPIENTS),
  );
  for (const { email } of admins) {
    if (!email) continue;
    const result = await sendMail(settings, webhookPausedEmail(email, webhook.url));
    if (!result.sent)
      log().warn(
        { tenantId: webhook.tenantId, code: result.code },
        `webhook pause email not sent: ${result.failure}`,
      );
  }
}
