/**
 * Platform: one email out over the operator's SMTP server (nodemailer). Imports only the driver and
 * lib/config. What a failure says is one of a few short reasons, never the server's reply or the SMTP URL:
 * the reply may quote the account, and the URL carries its password.
 */
import nodemailer from "nodemailer";
import type { MailSettings } from "@/lib/config";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Why a message did not go out, in words fit for the dashboard. */
export type MailFailure =
  | "the mail server could not be reached"
  | "the mail server offered no secure connection"
  | "the mail server refused the sign-in"
  | "the mail server refused the recipient"
  | "the mail server refused the message";

export type MailOutcome = { sent: true } | { sent: false; failure: MailFailure; code: string };

/** A mail server that does not answer within these is given up, so inviting never hangs on it. */
const CONNECT_TIMEOUT_MS = 10_000;
const SOCKET_TIMEOUT_MS = 20_000;

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

function failureOf(code: string): MailFailure {
  if (code === "EAUTH" || code === "ENOAUTH") return "the mail server refused the sign-in";
  if (code === "EENVELOPE") return "the mail server refused the recipient";
  if (code === "ETLS") return "the mail server offered no secure connection";
  if (["ECONNECTION", "ETIMEDOUT", "ESOCKET", "EDNS", "EPROTOCOL"].includes(code))
    return "the mail server could not be reached";
  return "the mail server refused the message";
}

/**
 * Sends `message` from `settings.from`. smtp:// must upgrade to TLS (STARTTLS) before it signs in or sends,
 * unless the server is on this machine (a local relay); smtps:// is TLS from the start. Never throws for
 * the server's sake: a failure is an outcome with its reason and nodemailer's error code.
 */
export async function sendMail(settings: MailSettings, message: MailMessage): Promise<MailOutcome> {
  // Parsed here, not handed over as `url`: nodemailer then ignores every other option (requireTLS, timeouts).
  const url = new URL(settings.smtpUrl);
  const secure = url.protocol === "smtps:";
  const transport = nodemailer.createTransport({
    host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    auth: url.username
      ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
      : undefined,
    requireTLS: !LOOPBACK.has(url.hostname),
    connectionTimeout: CONNECT_TIMEOUT_MS,
    greetingTimeout: CONNECT_TIMEOUT_MS,
    socketTimeout: SOCKET_TIMEOUT_MS,
    // nodemailer's own logger would print the server's replies; failures are reported by code only.
    logger: false,
  });
  try {
    await transport.sendMail({ from: settings.from, ...message });
    return { sent: true };
  } catch (error) {
    const code =
      error && typeof error === "object" && "code" in error && typeof error.code === "string"
        ? error.code
        : "EUNKNOWN";
    return { sent: false, failure: failureOf(code), code };
  } finally {
    transport.close();
  }
}
