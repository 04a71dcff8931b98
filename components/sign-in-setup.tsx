import type { ReactNode } from "react";
import { CodeBlock } from "@/components/ui/code-block";

export interface SignInSetupProps {
  /** The site's base URL (AUTH_URL, or http://localhost:$PORT): where OAuth providers send people back. */
  siteUrl: string;
  /** Host names the development sign-in answers (AUTH_URL's, SEARCHMUX_ALLOWED_HOSTS, else loopback). */
  hosts: string[];
  /** The server runs in production mode (`npm start`), where the development sign-in needs an override. */
  production: boolean;
  /** AUTH_DEV_LOGIN=1 is set, and refused only for want of that override. */
  devLoginNeedsProductionOverride: boolean;
}

function Way({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="space-y-2">
      <h3 className="font-medium text-foreground">{title}</h3>
      {children}
    </section>
  );
}

interface OAuthWayProps {
  /** next-auth's provider id, the last part of its callback URL. */
  id: string;
  title: string;
  /** Where the operator registers this site with the provider. */
  create: string;
  idVariable: string;
  secretVariable: string;
}

const OAUTH_WAYS: readonly OAuthWayProps[] = [
  {
    id: "github",
    title: "GitHub",
    create:
      "Create an OAuth app (GitHub → Settings → Developer settings → OAuth Apps) whose authorization callback URL is",
    idVariable: "GITHUB_ID",
    secretVariable: "GITHUB_SECRET",
  },
  {
    id: "google",
    title: "Google",
    create:
      "Create an OAuth client ID of type “Web application” (Google Cloud console → APIs & Services → Credentials) whose authorized redirect URI is",
    idVariable: "GOOGLE_ID",
    secretVariable: "GOOGLE_SECRET",
  },
];

/** Sign-in through an OAuth provider: where to register this site, and the two variables to set. */
function OAuthWay(props: OAuthWayProps & { callbackUrl: string }) {
  return (
    <Way title={props.title}>
      <p>{props.create}</p>
      <CodeBlock code={props.callbackUrl} label={`${props.title} callback URL`} />
      <p>
        and set <code>{props.idVariable}</code> to its client ID and <code>{props.secretVariable}</code> to a
        client secret.
      </p>
    </Way>
  );
}

/** Company sign-in: any OpenID Connect provider, found from its issuer by discovery. */
function CompanyWay({ siteUrl }: { siteUrl: string }) {
  return (
    <Way title="Company sign-in (OpenID Connect)">
      <p>
        Register this site at your identity provider (Okta, Microsoft Entra ID, Keycloak, Auth0, Google
        Workspace, …) as a web application with a client secret, the authorization code flow and the scopes{" "}
        <code>openid email profile</code>, whose redirect URI is
      </p>
      <CodeBlock code={`${siteUrl}/api/auth/callback/oidc`} label="company sign-in callback URL" />
      <p>
        and set <code>AUTH_OIDC_ISSUER</code> to its issuer URL (https), <code>AUTH_OIDC_ID</code> to the
        client ID and <code>AUTH_OIDC_SECRET</code> to the secret; <code>AUTH_OIDC_NAME</code> names the
        button.
      </p>
    </Way>
  );
}

/** What the operator sets for each way in, shown while none is configured. */
export function SignInSetup({
  siteUrl,
  hosts,
  production,
  devLoginNeedsProductionOverride,
}: SignInSetupProps) {
  const devVariables = production
    ? "AUTH_DEV_LOGIN=1\nAUTH_DEV_LOGIN_ALLOW_PRODUCTION=1"
    : "AUTH_DEV_LOGIN=1";
  return (
    <div className="space-y-6 text-sm text-muted-foreground" data-testid="sign-in-setup">
      <p>
        No way to sign in is configured yet. Set the variables of one of these where the server reads its
        environment (its shell, or <code>.env.local</code>) and restart it.
      </p>
      <Way title="Development sign-in (this machine only)">
        {devLoginNeedsProductionOverride ? (
          <p>
            <code>AUTH_DEV_LOGIN=1</code> is set, but this server runs in production mode (
            <code>npm start</code>), where the development sign-in also needs{" "}
            <code>AUTH_DEV_LOGIN_ALLOW_PRODUCTION=1</code>.
          </p>
        ) : null}
        <CodeBlock code={devVariables} label="development sign-in variables" />
        <p>
          Then open <code>{siteUrl}/signin</code> in a browser on the server&apos;s own machine (at{" "}
          {hosts.join(" or ")}). It signs in whoever asks from this machine, never through a proxy or tunnel
          {production ? ", so keep it off a server others can reach" : ""}.
        </p>
      </Way>
      {OAUTH_WAYS.map((way) => (
        <OAuthWay key={way.id} {...way} callbackUrl={`${siteUrl}/api/auth/callback/${way.id}`} />
      ))}
      <CompanyWay siteUrl={siteUrl} />
      <p>
        The callback URLs start with <code>AUTH_URL</code>; if people reach this server at another address
        than <code>{siteUrl}</code>, set <code>AUTH_URL</code> to it first. With GitHub or Google anyone with
        an account can sign up, with company sign-in anyone your identity provider admits, and each new
        workspace gets the default operator quotas.
      </p>
    </div>
  );
}
