/**
 * The invitation email: subject, plain text and HTML, from fixed wording and three facts the workspace
 * cannot dress up (the inviter's email address, the role, the expiry). The workspace's name is left out on
 * purpose: it is free text an admin chooses, and would let anyone who signs up mail their own words to any
 * address under this deployment's name.
 */
import type { MailMessage } from "@/lib/mail/send-mail";

export interface InvitationEmailFacts {
  to: string;
  /** The inviting member's email address; null for the operator (CLI). */
  inviter: string | null;
  role: "owner" | "admin" | "member";
  link: string;
  expiresAt: Date;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function invitationEmail(facts: InvitationEmailFacts): MailMessage {
  const who = facts.inviter ?? "The operator of this Searchmux deployment";
  const role = facts.role === "admin" ? "an admin" : "a member";
  const expires = `${facts.expiresAt.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  const lines = [
    `${who} invited you to join a workspace on Searchmux as ${role}.`,
    `Sign in with this address (${facts.to}) to accept. The link works once, until ${expires}.`,
    "If you did not expect this invitation, ignore this email.",
  ];
  const [invited, signIn, ignore] = lines.map(escapeHtml);
  const href = escapeHtml(facts.link);
  return {
    to: facts.to,
    subject: "You are invited to a Searchmux workspace",
    text: `${lines[0]}\n\nAccept the invitation: ${facts.link}\n\n${lines[1]}\n${lines[2]}\n`,
    html:
      `<p>${invited}</p>\n<p><a href="${href}">Accept the invitation</a></p>\n` +
      `<p>${signIn}<br>${ignore}</p>\n<p>Or open this link: ${href}</p>\n`,
  };
}
