/**
 * GitHub and Google sign-in take only an email address the provider verified: memberships, invitations and
 * the operator list go by address, so an unverified one would let anyone who types another's address into
 * their account accept an invitation sent to it, or hold an operator's rights. Google states it in the ID
 * token (`email_verified`). GitHub's profile carries the public address, which is not necessarily the primary
 * one nor verified: the profile's address is replaced by the primary address from GET /user/emails, marked
 * with whether GitHub verified it. Company sign-in has checks of its own (company-sign-in.ts).
 */
import type { UserinfoEndpointHandler } from "next-auth/providers/oauth";

/** GitHub's profile, and the account's addresses (readable with the `user:email` scope the provider asks for). */
const GITHUB_USER_URL = "https://api.github.com/user";
const GITHUB_EMAILS_URL = "https://api.github.com/user/emails";

/** One address as GET /user/emails lists it. */
export interface GitHubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
}

/** The refusal the sign-in page explains (`?error=EmailUnverified`). */
export type EmailRefusal = "EmailUnverified";

/**
 * The GitHub profile with its address replaced by the primary one and `email_verified` set: no primary
 * address, or an unverified one, is refused by `emailRefusal` (another verified address is not taken in
 * its place: the account's owner chose the primary one).
 */
export function withPrimaryEmail(
  profile: Record<string, unknown>,
  emails: readonly GitHubEmail[],
): Record<string, unknown> {
  const primary = emails.find((entry) => entry.primary);
  return { ...profile, email: primary?.email ?? null, email_verified: primary?.verified === true };
}

const isGitHubEmail = (value: unknown): value is GitHubEmail =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as GitHubEmail).email === "string" &&
  typeof (value as GitHubEmail).primary === "boolean" &&
  typeof (value as GitHubEmail).verified === "boolean";

async function githubJson(url: string, accessToken: string | undefined): Promise<unknown> {
  const response = await fetch(url, {
    headers: {
      authorization: `Bearer ${accessToken ?? ""}`,
      accept: "application/vnd.github+json",
      "user-agent": "Searchmux",
    },
  });
  // next-auth answers a failed callback with its OAuthCallback error: nobody is signed in.
  if (!response.ok) throw new Error(`GitHub answered ${response.status} for ${new URL(url).pathname}`);
  return response.json();
}

/** next-auth's GitHub userinfo step: the profile, then the account's addresses (both needed, or no sign-in). */
export const githubUserinfo: UserinfoEndpointHandler = {
  url: GITHUB_USER_URL,
  async request({ tokens }) {
    const [profile, emails] = await Promise.all([
      githubJson(GITHUB_USER_URL, tokens.access_token),
      githubJson(GITHUB_EMAILS_URL, tokens.access_token),
    ]);
    const listed = Array.isArray(emails) ? emails.filter(isGitHubEmail) : [];
    return withPrimaryEmail(profile as Record<string, unknown>, listed);
  },
};

/** Why a GitHub or Google sign-in is refused before any account is made or linked, or null. */
export function emailRefusal(provider: string | undefined, profile: unknown): EmailRefusal | null {
  if (provider !== "github" && provider !== "google") return null;
  const { email, email_verified } = (profile ?? {}) as { email?: unknown; email_verified?: unknown };
  const verified = email_verified === true || email_verified === "true";
  return typeof email === "string" && email !== "" && verified ? null : "EmailUnverified";
}
