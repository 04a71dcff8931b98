import { KeyRound, TriangleAlert } from "lucide-react";
import Link from "next/link";
import { redirect } from "next/navigation";
import { ConsentForm } from "@/components/oauth/consent-form";
import { SiteHeader } from "@/components/site-header";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { authorizationErrorUrl, parseAuthorizationQuery } from "@/lib/api/oauth/authorization";
import { CONSENT_PATH } from "@/lib/api/oauth/metadata";
import { currentSession } from "@/lib/auth/session";
import { approveAuthorizationAction, denyAuthorizationAction } from "@/lib/dashboard/actions/oauth";
import { baseUrl } from "@/lib/dashboard/base-url";
import { mcpResourceOf } from "@/lib/mcp/resource-metadata";
import { listWorkspaces } from "@/lib/services/accounts/list-workspaces";
import {
  type AuthorizationRequest,
  checkAuthorizationRequest,
} from "@/lib/services/oauth/authorization-request";
import { OAuthError } from "@/lib/services/oauth/oauth-error";
import { isLoopbackRedirect, redirectHost } from "@/lib/services/oauth/redirect-uris";
import { systemContext } from "@/lib/services/platform";

export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** The query string as it came, repeated parameters included (they make the request unusable). */
function queryOf(params: Awaited<SearchParams>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
      search.append(name, one);
  }
  return search.toString();
}

function Refused({ message }: { message: string }) {
  return (
    <Card>
      <CardHeader>
        <TriangleAlert className="size-8 text-destructive" aria-hidden />
        <h1 className="text-xl font-semibold">This sign-in request cannot be completed</h1>
        <CardDescription role="alert">{message}</CardDescription>
      </CardHeader>
      <CardContent>
        <Button asChild variant="outline">
          <Link href="/dashboard">Go to the dashboard</Link>
        </Button>
      </CardContent>
    </Card>
  );
}

/** Who is asking, and where the answer goes: the host is named as the spec asks, localhost warned about. */
function Requester({ request }: { request: AuthorizationRequest }) {
  const { client, redirectUri } = request;
  return (
    <CardDescription className="space-y-2">
      <span className="block">
        <strong>{client.name}</strong> asks to use Searchmux on your behalf.{" "}
        {client.kind === "metadata_document" ? `It is published by ${new URL(client.id).host}; ` : ""}
        after your answer you return to{" "}
        <strong data-testid="redirect-host">{redirectHost(redirectUri)}</strong>.
      </span>
      {isLoopbackRedirect(redirectUri) ? (
        <span className="block text-warning">
          The answer goes to an application on this computer. Approve only if you just started connecting{" "}
          {client.name} yourself.
        </span>
      ) : null}
    </CardDescription>
  );
}

/**
 * OAuth consent: the authorization endpoint sends the member here with the client's request. Signed in,
 * they see the application and where it returns, pick the workspace and the permissions, and approve or
 * deny. A request that cannot be trusted to redirect (unknown client, unregistered redirect URI) is
 * explained here; other faults go back to the application as OAuth errors.
 */
export default async function ConsentPage({ searchParams }: { searchParams: SearchParams }) {
  const query = queryOf(await searchParams);
  const session = await currentSession();
  if (!session) redirect(`/signin?callbackUrl=${encodeURIComponent(`${CONSENT_PATH}?${query}`)}`);

  const ctx = await systemContext({ kind: "user", userId: session.user.id });
  const issuer = new URL(await baseUrl()).origin;
  let checked: Awaited<ReturnType<typeof checkAuthorizationRequest>> | { error: string };
  try {
    checked = await checkAuthorizationRequest({
      ctx,
      input: { params: parseAuthorizationQuery(query), resources: [mcpResourceOf(issuer)] },
    });
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    checked = { error: error.message };
  }
  if ("refused" in checked) {
    redirect(authorizationErrorUrl(checked.redirectUri, issuer, checked.refused, checked.state));
  }
  const workspaces =
    "request" in checked ? await listWorkspaces({ ctx, input: { userId: session.user.id } }) : [];
  return (
    <>
      <SiteHeader />
      <main className="mx-auto max-w-lg px-6 py-16">
        {"error" in checked ? (
          <Refused message={checked.error} />
        ) : (
          <Card>
            <CardHeader>
              <KeyRound className="size-8 text-primary" aria-hidden />
              <h1 className="text-xl font-semibold">Connect {checked.request.client.name} to Searchmux?</h1>
              <Requester request={checked.request} />
            </CardHeader>
            <CardContent>
              <p className="mb-4 text-sm text-muted-foreground">
                Signed in as {session.user.email ?? session.user.name}. It gets a token of the workspace you
                choose, with no more rights than your role there; revoke it any time under Connect.
              </p>
              <ConsentForm
                workspaces={workspaces}
                currentTenantId={session.tenantId}
                scopes={checked.request.scopes}
                approve={approveAuthorizationAction.bind(null, query)}
                deny={denyAuthorizationAction.bind(null, query)}
              />
            </CardContent>
          </Card>
        )}
      </main>
    </>
  );
}
