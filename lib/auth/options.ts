/**
 * next-auth (v4) configuration: GitHub, Google and company sign-in (OpenID Connect, company-sign-in.ts) when
 * their credentials are set, and the development
 * sign-in when AUTH_DEV_LOGIN=1 (refused under NODE_ENV=production unless
 * AUTH_DEV_LOGIN_ALLOW_PRODUCTION=1; see lib/config.ts), for loopback clients only (dev-sign-in-guard.ts).
 * GitHub and Google sign in only with an address they verified (verified-email.ts). Sessions are JWTs
 * carrying the user's tenant.
 */
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import GitHubProvider from "next-auth/providers/github";
import GoogleProvider from "next-auth/providers/google";
import type { Provider } from "next-auth/providers/index";
import { config } from "@/lib/config";
import { getDatabase } from "@/lib/db";
import { systemContext } from "@/lib/pipeline/platform";
import { drizzleAuthAdapter } from "@/lib/services/accounts/auth-adapter";
import { ensurePersonalTenant } from "@/lib/services/accounts/ensure-personal-tenant";
import { membershipOf } from "@/lib/services/accounts/membership-of";
import { upsertDevUser } from "@/lib/services/accounts/upsert-dev-user";
import { companySignInProvider, OIDC_PROVIDER_ID, type OidcClaims, oidcRefusal } from "./company-sign-in";
import { devSignInRefusal } from "./dev-sign-in-guard";
import { authSecret } from "./secret";
import { emailRefusal, githubUserinfo } from "./verified-email";

export const DEV_PROVIDER_ID = "dev";

const { auth, allowedHosts } = config();
// next-auth v4 reads its base URL from NEXTAUTH_URL; AUTH_URL is this product's name for it.
process.env.NEXTAUTH_URL ??= auth.url ?? `http://localhost:${process.env.PORT ?? 3000}`;
/** The site's base URL, where redirects after sign-in stay. */
export const SITE_URL: string = process.env.NEXTAUTH_URL;

const signInContext = (userId?: string) =>
  systemContext(userId ? { kind: "user", userId } : { kind: "operator" });

function providers(): Provider[] {
  const list: Provider[] = [];
  if (auth.github) list.push(GitHubProvider({ ...auth.github, userinfo: githubUserinfo }));
  if (auth.google) list.push(GoogleProvider(auth.google));
  if (auth.oidc) list.push(companySignInProvider(auth.oidc));
  if (auth.devLogin) {
    list.push(
      CredentialsProvider({
        id: DEV_PROVIDER_ID,
        name: "Development sign-in",
        credentials: {},
        authorize: async (_credentials, request) => {
          const refusal = devSignInRefusal(new Headers(request.headers), allowedHosts);
          if (refusal) throw new Error(refusal);
          return upsertDevUser({ ctx: await signInContext() });
        },
      }),
    );
  }
  return list;
}

const requestIndependent: Omit<NextAuthOptions, "adapter" | "providers" | "secret"> = {
  session: { strategy: "jwt", maxAge: 30 * 24 * 3600 },
  pages: { signIn: "/signin" },
  callbacks: {
    // Checks before next-auth makes or finds the account: a verified address from GitHub and Google
    // (verified-email.ts), company sign-in's own (company-sign-in.ts).
    signIn({ account, profile }) {
      const refusal =
        account?.provider === OIDC_PROVIDER_ID && auth.oidc
          ? oidcRefusal(auth.oidc, (profile ?? {}) as Partial<OidcClaims>)
          : emailRefusal(account?.provider, profile);
      return refusal ? `/signin?error=${refusal}` : true;
    },
    // Runs on every session read: the workspace and role come from the memberships as they are now, so
    // a member who was removed or demoted loses those rights at once, not when the JWT expires. A session
    // update ({tenantId}) switches to another workspace the user belongs to (after accepting an invitation).
    async jwt({ token, user, trigger, session }) {
      const userId = user?.id ?? token.uid;
      if (!userId) return token;
      const ctx = await signInContext(userId);
      const wanted =
        trigger === "update" ? (session as { tenantId?: unknown } | undefined)?.tenantId : undefined;
      const tenantId = typeof wanted === "string" ? wanted : user ? undefined : token.tenantId;
      const current = tenantId ? await membershipOf({ ctx, input: { userId, tenantId } }) : null;
      const membership = current ?? (await ensurePersonalTenant({ ctx, input: { userId } }));
      token.uid = userId;
      token.tenantId = membership.tenantId;
      token.role = membership.role;
      return token;
    },
    session({ session, token }) {
      if (token.uid && token.tenantId && token.role) {
        session.user = { ...session.user, id: token.uid };
        session.tenantId = token.tenantId;
        session.role = token.role;
      }
      return session;
    },
  },
};

/**
 * Built when a request needs them, never at import: `next build` imports this module, and the secret
 * (generated into the data directory when AUTH_SECRET is unset) must not be created or read there, or it
 * would end up in the build output or the image.
 */
export function authOptions(): NextAuthOptions {
  return {
    ...requestIndependent,
    adapter: drizzleAuthAdapter(getDatabase),
    providers: providers(),
    secret: authSecret(),
  };
}
