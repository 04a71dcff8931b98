/**
 * What the sign-in page says for next-auth's `?error=` codes and company sign-in's refusals. Only known
 * codes are explained; anything else gets the general sentence, so the query string cannot put words on
 * the page. None of it says more than the person signing in already knows: no provider reply, no detail of
 * the configuration.
 */
import type { OidcRefusal } from "./company-sign-in";
import type { EmailRefusal } from "./verified-email";

type NextAuthError = "OAuthSignin" | "OAuthCallback" | "OAuthAccountNotLinked" | "AccessDenied";

const MESSAGES: Record<NextAuthError | OidcRefusal | EmailRefusal, string> = {
  OAuthSignin:
    "Signing in could not start: the identity provider could not be reached or its configuration could not be read. Try again later, or tell whoever runs this server.",
  OAuthCallback:
    "The identity provider's answer could not be verified, so you are not signed in. Try again; if it keeps happening, tell whoever runs this server (the client ID or secret may be wrong).",
  OAuthAccountNotLinked:
    "This email address already belongs to an account that signs in another way. Sign in the way you did before.",
  AccessDenied: "Signing in was refused.",
  OidcIssuer:
    "The identity provider's answer names another issuer than the one this server is configured with, so it was refused. Tell whoever runs this server.",
  OidcNoEmail:
    "Your identity provider did not share your email address, which signing in here needs. Ask its administrator to release the email claim.",
  EmailUnverified:
    "GitHub or Google has not verified your account's email address (on GitHub: its primary address), so it cannot sign you in here. Verify the address there, then try again.",
  OidcEmailUnverified:
    "Your identity provider has not verified your email address, so it cannot sign you in here. Verify the address there, then try again.",
};

const GENERAL = "Signing in failed. Try again.";

/** The sentence for `code`; undefined when there is none to show. */
export function signInErrorMessage(code: string | undefined): string | undefined {
  if (!code) return undefined;
  return Object.hasOwn(MESSAGES, code) ? MESSAGES[code as keyof typeof MESSAGES] : GENERAL;
}
