/**
 * Invitation emails over a real SMTP server (smtp-server, on loopback): sent with the link that joins,
 * refused and failed sends that keep the invitation and say only a short reason, TLS required before
 * signing in to a server off this machine, the hourly and daily allowances under concurrent invitations,
 * and the verb's scope and tenant checks.
 */
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, users } from "@/lib/db/schema";
import { createRedisKv } from "@/lib/kv/redis";
import { DEFAULT_TOKEN_SCOPES, type Platform, type TenantContext } from "@/lib/pipeline/context";
import { acceptInvitation } from "@/lib/services/members/accept-invitation";
import {
  emailInvitation,
  INVITATION_EMAILS_PER_RECIPIENT_DAY,
  INVITATION_EMAILS_PER_WORKSPACE_HOUR,
} from "@/lib/services/members/email-invitation";
import { inviteMember } from "@/lib/services/members/invite-member";
import { listInvitations } from "@/lib/services/members/list-invitations";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { primaryTarget, type TestDatabase } from "@/tests/support/database";
import { type MailServer, REFUSED_DOMAIN, startMailServer } from "@/tests/support/mail-server";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";

const BASE = "https://smx.corp.test";
const PASSWORD = "pa55-w0rd-for-smtp";
/** Words an admin chose, which the email must not carry. */
const WORKSPACE_NAME = "Claim your prize at prize.example";

describe.each(primaryTarget())("invitation emails on $name", (target) => {
  let t: TestDatabase;
  let mail: MailServer;
  let platform: Platform;
  let ownerId: string;

  beforeAll(async () => {
    t = await target.create();
    mail = await startMailServer({ address: "127.0.0.1", port: 0, user: "mailer", password: PASSWORD });
    platform = testPlatform(t.db, {
      env: { SMTP_URL: mail.url, EMAIL_FROM: "Searchmux <invites@smx.corp.test>", AUTH_URL: `${BASE}/` },
    });
    const [owner] = await t.db.withSystem((tx) =>
      tx.insert(users).values({ email: "owner@corp.test", name: "Owner" }).returning({ id: users.id }),
    );
    ownerId = owner?.id ?? "";
  });
  afterAll(async () => {
    await mail?.close();
    await t?.cleanup();
  });

  /** A fresh workspace owned by the owner, on `on` (its env and KV). */
  async function workspace(on: Platform = platform): Promise<TenantContext> {
    const tenant = await createTenant({
      ctx: systemCtx(on),
      input: { name: WORKSPACE_NAME, ownerUserId: ownerId },
    });
    return tenantCtx(on, tenant.id, undefined, { kind: "user", userId: ownerId });
  }

  async function inviteAndEmail(ctx: TenantContext, email: string) {
    const invitation = await inviteMember({ ctx, input: { email } });
    const sent = await emailInvitation({
      ctx,
      input: { id: invitation.id, secret: invitation.secret },
    });
    return { invitation, sent };
  }

  const auditOf = (invitationId: string) =>
    t.db.withSystem((tx) =>
      tx
        .select({ details: auditLog.details, actor: auditLog.actorUserId })
        .from(auditLog)
        .where(and(eq(auditLog.action, "member.invite_email"), eq(auditLog.targetId, invitationId))),
    );

  it("mails the link to the invited address, and the link joins the workspace", async () => {
    const ctx = await workspace();
    const before = (await mail.messages()).length;
    const { invitation, sent } = await inviteAndEmail(ctx, "Ada@Corp.test");
    expect(sent).toEqual({ status: "sent", to: "ada@corp.test" });
    const message = (await mail.messages())[before];
    const link = `${BASE}/invite/${invitation.secret}`;
    expect(message?.to).toMatchObject({ text: "ada@corp.test" });
    expect(message?.from?.text).toBe('"Searchmux" <invites@smx.corp.test>');
    expect(message?.subject).toBe("You are invited to a Searchmux workspace");
    expect(message?.text).toContain(`Accept the invitation: ${link}`);
    expect(message?.text).toContain("owner@corp.test invited you");
    expect(message?.html).toContain(`href="${link}"`);
    expect(`${message?.subject} ${message?.text} ${message?.html}`).not.toContain("prize");

    const secret = new URL(link).pathname.split("/").at(-1) ?? "";
    const [ada] = await t.db.withSystem((tx) =>
      tx.insert(users).values({ email: "ada@corp.test" }).returning({ id: users.id }),
    );
    const joined = await acceptInvitation({
      ctx: systemCtx(platform),
      input: { secret, userId: ada?.id ?? "" },
    });
    expect(joined).toEqual({ tenantId: ctx.tenantId, role: "member", alreadyMember: false });
    expect(await auditOf(invitation.id)).toEqual([
      { actor: ownerId, details: { actor: "user", email: "ada@corp.test", sent: true } },
    ]);
  });

  it("says only that it is not configured without SMTP_URL and EMAIL_FROM, and sends nothing", async () => {
    const ctx = await workspace(testPlatform(t.db));
    const before = (await mail.messages()).length;
    const { sent } = await inviteAndEmail(ctx, "bob@corp.test");
    expect(sent).toEqual({ status: "not_configured" });
    expect(await mail.messages()).toHaveLength(before);
  });

  it("keeps the invitation when a send fails, with a short reason and no server text or password", async () => {
    const ctx = await workspace();
    const refused = await inviteAndEmail(ctx, `someone@${REFUSED_DOMAIN}`);
    expect(refused.sent).toEqual({
      status: "failed",
      to: `someone@${REFUSED_DOMAIN}`,
      reason: "the mail server refused the recipient",
    });

    const wrongPassword = await workspace(
      testPlatform(t.db, {
        env: {
          SMTP_URL: mail.url.replace(PASSWORD, "not-the-password"),
          EMAIL_FROM: "invites@smx.corp.test",
          AUTH_URL: BASE,
        },
      }),
    );
    const signInRefused = await inviteAndEmail(wrongPassword, "carol@corp.test");
    expect(signInRefused.sent).toMatchObject({
      status: "failed",
      reason: "the mail server refused the sign-in",
    });
    expect(mail.refusedSignIns()).toBeGreaterThan(0);

    const closed = await startMailServer({ address: "127.0.0.1", port: 0, user: "u", password: PASSWORD });
    await closed.close();
    const unreachable = await workspace(
      testPlatform(t.db, {
        env: { SMTP_URL: closed.url, EMAIL_FROM: "invites@smx.corp.test", AUTH_URL: BASE },
      }),
    );
    const down = await inviteAndEmail(unreachable, "dan@corp.test");
    expect(down.sent).toMatchObject({ status: "failed", reason: "the mail server could not be reached" });

    for (const [ctx_, { invitation, sent }] of [
      [ctx, refused],
      [wrongPassword, signInRefused],
      [unreachable, down],
    ] as const) {
      expect((await listInvitations({ ctx: ctx_ })).map((row) => row.id)).toEqual([invitation.id]);
      expect(JSON.stringify(sent)).not.toMatch(
        /pa55|not-the-password|Invalid username|No such mailbox|550|535/,
      );
      const [audit] = await auditOf(invitation.id);
      expect(audit?.details).toMatchObject({ sent: false, reason: (sent as { reason: string }).reason });
    }
  });

  it("never signs in to a server off this machine before TLS: one without STARTTLS gets nothing", async () => {
    const plain = await startMailServer({
      address: "127.0.0.2",
      port: 0,
      user: "mailer",
      password: PASSWORD,
    });
    try {
      const ctx = await workspace(
        testPlatform(t.db, {
          env: { SMTP_URL: plain.url, EMAIL_FROM: "invites@smx.corp.test", AUTH_URL: BASE },
        }),
      );
      const { sent } = await inviteAndEmail(ctx, "erin@corp.test");
      expect(sent).toMatchObject({
        status: "failed",
        reason: "the mail server offered no secure connection",
      });
      expect(await plain.messages()).toEqual([]);
      expect(plain.refusedSignIns()).toBe(0);
    } finally {
      await plain.close();
    }
  });

  it("sends a workspace at most its hourly allowance, however many invitations race", async () => {
    const ctx = await workspace();
    const before = (await mail.messages()).length;
    const count = INVITATION_EMAILS_PER_WORKSPACE_HOUR + 5;
    const results = await Promise.all(
      Array.from({ length: count }, (_, i) => inviteAndEmail(ctx, `racer${i}@corp.test`)),
    );
    const statuses = results.map(({ sent }) => sent.status);
    expect(statuses.filter((s) => s === "sent")).toHaveLength(INVITATION_EMAILS_PER_WORKSPACE_HOUR);
    expect(results.filter(({ sent }) => sent.status === "failed").map(({ sent }) => sent)).toEqual(
      Array(5).fill(expect.objectContaining({ reason: "too many invitation emails; try again later" })),
    );
    expect((await mail.messages()).length - before).toBe(INVITATION_EMAILS_PER_WORKSPACE_HOUR);
    expect(await listInvitations({ ctx })).toHaveLength(count);
    // Another workspace has an allowance of its own.
    expect((await inviteAndEmail(await workspace(), "fresh@corp.test")).sent.status).toBe("sent");
  });

  it("sends one address at most its daily allowance, from all workspaces together", async () => {
    const outcomes = [];
    for (let i = 0; i <= INVITATION_EMAILS_PER_RECIPIENT_DAY; i++)
      outcomes.push((await inviteAndEmail(await workspace(), "popular@corp.test")).sent.status);
    expect(outcomes).toEqual([...Array(INVITATION_EMAILS_PER_RECIPIENT_DAY).fill("sent"), "failed"]);
  });

  it("sends nothing while the KV store that counts the allowances does not answer", async () => {
    const deadKv = createRedisKv("redis://127.0.0.1:1");
    try {
      const ctx = await workspace(testPlatform(t.db, { env: platform.env, kv: deadKv }));
      const before = (await mail.messages()).length;
      const { invitation, sent } = await inviteAndEmail(ctx, "gus@corp.test");
      expect(sent).toEqual({ status: "failed", to: "gus@corp.test", reason: "the email could not be sent" });
      expect(await mail.messages()).toHaveLength(before);
      expect((await listInvitations({ ctx })).map((row) => row.id)).toEqual([invitation.id]);
    } finally {
      await deadKv.close();
    }
  });

  it("mails only for admins, only a pending invitation of this workspace, only with its secret", async () => {
    const ctx = await workspace();
    const { invitation } = await inviteAndEmail(ctx, "frank@corp.test");
    const input = { id: invitation.id, secret: invitation.secret };
    await expect(
      emailInvitation({ ctx: { ...ctx, scopes: DEFAULT_TOKEN_SCOPES }, input }),
    ).rejects.toMatchObject({ code: "forbidden" });
    const other = await workspace();
    await expect(emailInvitation({ ctx: other, input })).rejects.toMatchObject({ code: "not_found" });
    await expect(
      emailInvitation({ ctx, input: { ...input, secret: `${invitation.secret.slice(0, -2)}xx` } }),
    ).rejects.toMatchObject({ code: "not_found" });
    await expect(emailInvitation({ ctx, input: { ...input, id: randomUUID() } })).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("mails no link without the deployment's public URL (AUTH_URL): never one to the host a request named", async () => {
    const unconfigured = testPlatform(t.db, {
      env: { SMTP_URL: mail.url, EMAIL_FROM: "Searchmux <invites@smx.corp.test>" },
    });
    const ctx = await workspace(unconfigured);
    const before = (await mail.messages()).length;
    const { sent } = await inviteAndEmail(ctx, "grace@corp.test");
    expect(sent).toEqual({
      status: "failed",
      to: "grace@corp.test",
      reason: "the deployment's public URL (AUTH_URL) is not set, so no link is emailed",
    });
    expect(await mail.messages()).toHaveLength(before);
  });
});
