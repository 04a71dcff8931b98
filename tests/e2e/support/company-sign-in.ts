/**
 * The identity provider and the mail server the e2e server uses (each its own process, started by
 * playwright.config.ts): company sign-in against a real OpenID Connect provider (tests/support/
 * identity-provider.ts) and invitation emails to a real SMTP server (tests/support/mail-server.ts), both on
 * the client site's address with its certificate, which the e2e server trusts. The mail server keeps each
 * message as a file in E2E_MAIL_DIR, which the specs read.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { type ParsedMail, simpleParser } from "mailparser";
import { CLIENT_SITE_ADDRESS } from "./client-site";

export const IDENTITY_PROVIDER_PORT = Number(process.env.E2E_OIDC_PORT ?? 3197);
export const IDENTITY_PROVIDER_ISSUER = `https://${CLIENT_SITE_ADDRESS}:${IDENTITY_PROVIDER_PORT}`;
export const OIDC_CLIENT = { id: "searchmux-e2e", secret: "e2e-oidc-client-secret-0001" };
/** The sign-in button's name (AUTH_OIDC_NAME). */
export const OIDC_NAME = "Corp SSO";

export const MAIL_SERVER_PORT = Number(process.env.E2E_SMTP_PORT ?? 3196);
export const MAIL_ACCOUNT = { user: "searchmux", password: "e2e-smtp-password-0001" };

/** The e2e server's variables for both. */
export function companySignInEnv(): Record<string, string> {
  const { user, password } = MAIL_ACCOUNT;
  return {
    AUTH_OIDC_ISSUER: IDENTITY_PROVIDER_ISSUER,
    AUTH_OIDC_ID: OIDC_CLIENT.id,
    AUTH_OIDC_SECRET: OIDC_CLIENT.secret,
    AUTH_OIDC_NAME: OIDC_NAME,
    SMTP_URL: `smtp://${user}:${password}@${CLIENT_SITE_ADDRESS}:${MAIL_SERVER_PORT}`,
    EMAIL_FROM: "Searchmux <invites@searchmux.test>",
  };
}

/** Where the mail server writes what it accepted, which playwright.config.ts creates once. */
export function mailDir(): string {
  const dir = process.env.E2E_MAIL_DIR;
  if (!dir) throw new Error("E2E_MAIL_DIR is not set: run the specs through playwright.config.ts");
  return dir;
}

/** Every message the mail server accepted to `to`, oldest first. */
export async function mailTo(to: string): Promise<ParsedMail[]> {
  const files = readdirSync(mailDir())
    .filter((name) => name.endsWith(".eml"))
    .sort();
  const parsed = await Promise.all(
    files.map((name) => simpleParser(readFileSync(path.join(mailDir(), name)))),
  );
  return parsed.filter((message) => message.to && !Array.isArray(message.to) && message.to.text === to);
}
