import { describe, expect, it } from "vitest";
import { mailSettings } from "@/lib/config";
import { checkDeployment, MAIL_WITHOUT_AUTH_URL_WARNING } from "@/lib/deploy-check";
import { invitationEmail } from "@/lib/services/members/invitation-email";

const MAIL = {
  SMTP_URL: "smtp://mailer:pa55word@smtp.corp.test:587",
  EMAIL_FROM: "Searchmux <invites@corp.test>",
};

describe("mail settings", () => {
  it("are off without SMTP_URL and EMAIL_FROM and on with both", () => {
    expect(mailSettings({})).toBeUndefined();
    expect(mailSettings(MAIL)).toEqual({ smtpUrl: MAIL.SMTP_URL, from: MAIL.EMAIL_FROM });
    expect(mailSettings({ ...MAIL, EMAIL_FROM: "invites@corp.test" })?.from).toBe("invites@corp.test");
  });

  it("refuse half of the pair and bad values at start, never echoing the SMTP URL", () => {
    expect(checkDeployment({ SMTP_URL: MAIL.SMTP_URL }, "server").errors).toEqual([
      "EMAIL_FROM is missing: SMTP_URL is set, and sending invitation emails needs both (or neither)",
    ]);
    for (const SMTP_URL of [
      "https://mailer:pa55word@smtp.corp.test",
      "mailer:pa55word@smtp.corp.test",
      "smtp://",
    ]) {
      const { errors } = checkDeployment({ ...MAIL, SMTP_URL }, "server");
      expect(errors).toEqual([expect.stringMatching(/^SMTP_URL must be smtp:\/\/user:password@host:587/)]);
      expect(errors[0]).not.toContain("pa55word");
    }
    for (const EMAIL_FROM of ["not an address", "a@b.test\r\nBcc: everyone@corp.test", "<a@b.test"])
      expect(checkDeployment({ ...MAIL, EMAIL_FROM }, "server").errors).toEqual([
        expect.stringMatching(/^EMAIL_FROM must be an address/),
      ]);
  });

  it("warn in production without AUTH_URL: the links would name whatever host the admin used", () => {
    expect(checkDeployment({ ...MAIL, NODE_ENV: "production" }, "server").warnings).toContain(
      MAIL_WITHOUT_AUTH_URL_WARNING,
    );
    expect(
      checkDeployment({ ...MAIL, NODE_ENV: "production", AUTH_URL: "https://smx.corp.test" }, "server")
        .warnings,
    ).toEqual([]);
  });
});

describe("the invitation email", () => {
  const facts = {
    to: "ada@corp.test",
    inviter: "<b>boss</b>@corp.test",
    role: "admin" as const,
    link: "https://smx.corp.test/invite/abc&def",
    expiresAt: new Date("2026-01-08T10:30:00Z"),
  };

  it("carries the link in text and HTML, the role and the expiry, and escapes what it quotes", () => {
    const message = invitationEmail(facts);
    expect(message.to).toBe("ada@corp.test");
    expect(message.subject).toBe("You are invited to a Searchmux workspace");
    expect(message.text).toContain("Accept the invitation: https://smx.corp.test/invite/abc&def");
    expect(message.text).toContain("as an admin");
    expect(message.text).toContain("until 2026-01-08 10:30 UTC");
    expect(message.html).toContain('href="https://smx.corp.test/invite/abc&#38;def"');
    expect(message.html).toContain("&#60;b&#62;boss&#60;/b&#62;@corp.test invited you");
    expect(message.html).not.toContain("<b>");
  });

  it("names the operator when no member invited", () => {
    expect(invitationEmail({ ...facts, inviter: null, role: "member" }).text).toMatch(
      /^The operator of this Searchmux deployment invited you .* as a member\./,
    );
  });
});
