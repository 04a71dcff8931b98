import { KeyRound } from "lucide-react";
import { redirect } from "next/navigation";
import { ConsentForm } from "@/components/oauth/consent-form";
import { RefusedRequest } from "@/components/oauth/refused-request";
import { SiteHeader } from "@/components/site-header";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { consentRequest } from "@/lib/api/oauth/authorization";
import { CONSENT_PATH } from "@/lib/api/oauth/metadata";
import { currentSession } from "@/lib/auth/session";
import { approveAuthorizationAction, denyAuthorizationAction } from "@/lib/dashboard/actions/oauth";
import { baseUrl } from "@/lib/dashboard/base-url";
import { mcpResourceOf } from "@/lib/mcp/resource-metadata";
import { systemContext } from "@/lib/pipeline/platform";
import { listWorkspaces } from "@/lib/services/accounts/list-workspaces";
import type { AuthorizationRequest } from "@/lib/services/oauth/authorization-request";
import { isLoopbackRedirect, redirectHost } from "@/lib/services/oauth/redirect-uris";

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

/** Who is asking, and where the answer goes: the host is named as the spec asks, localhost warned about. */
function Requester({ request }: { request: AuthorizationRequest }) {
  const { client, redirectUri } = request;
  return (
    <CardDescription className="space-y-2">
      <span className="block">
        <strong>{client.name}</strong> asks to use Searchmux on your behalf.{" "}
        {client.kind === "metadata_document" ? `It is published by ${new URL(client.id).host}. ` : ""}
        After you answer, you return to{" "}
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
 * deny. A request that cannot go on is explained here, never redirected by itself: with a link that takes
 * the OAuth error back to the application when only the request is wrong, with none when its client or
 * redirect URI is not to be trusted (unknown client, unregistered redirect URI). The browser goes back on
 * its own only after the member approved or denied.
 */
export default async function ConsentPage({ searchParams }: { searchParams: SearchParams }) {
  const query = queryOf(await searchParams);
  const session = await currentSession();
  if (!session) redirect(`/signin?callbackUrl=${encodeURIComponent(`${CONSENT_PATH}?${query}`)}`);

  const ctx = await systemContext({ kind: "user", userId: session.user.id });
  const issuer = new URL(await baseUrl()).origin;
  const shown = await consentRequest(ctx, { query, issuer, resources: [mcpResourceOf(issuer)] });
  const workspaces =
    "request" in shown ? await listWorkspaces({ ctx, input: { userId: session.user.id } }) : [];
  return (
    <>
      <SiteHeader />
      <main className="mx-auto max-w-lg px-6 py-16">
        {"refused" in shown ? (
          <RefusedRequest refused={shown.refused} />
        ) : (
          <Card>
            <CardHeader>
              <KeyRound className="size-8 text-primary" aria-hidden />
              <h1 className="text-xl font-semibold">Connect {shown.request.client.name} to Searchmux?</h1>
              <Requester request={shown.request} />
            </CardHeader>
            <CardContent>
              <p className="mb-4 text-sm text-muted-foreground">
                Signed in as {session.user.email ?? session.user.name}. It gets a token of the workspace you
                choose, with no more rights than your role there; revoke it any time under Connect.
              </p>
              <ConsentForm
                workspaces={workspaces}
                currentTenantId={session.tenantId}
                scopes={shown.request.scopes}
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
