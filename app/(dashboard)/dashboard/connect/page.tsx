import { Ban, KeyRound } from "lucide-react";
import { ClientConfigs } from "@/components/client-configs";
import { ConnectedApps } from "@/components/dashboard/connected-apps/connected-apps";
import { PageHeader } from "@/components/dashboard/page-header";
import { PagePagination } from "@/components/dashboard/page-pagination";
import { SectionCard } from "@/components/dashboard/section-card";
import { CreateTokenForm } from "@/components/dashboard/tokens/create-token-form";
import { NewTokenProvider } from "@/components/dashboard/tokens/new-token";
import { TokenTable } from "@/components/dashboard/tokens/token-table";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { CodeBlock } from "@/components/ui/code-block";
import { EmptyState } from "@/components/ui/empty-state";
import { tenantLimits } from "@/lib/config";
import { baseUrl } from "@/lib/dashboard/base-url";
import { isLiveToken } from "@/lib/dashboard/checklist";
import { paginate } from "@/lib/dashboard/paginate";
import { profileToolSizes } from "@/lib/dashboard/profile-tools";
import { TOOLS_BY_SCOPE } from "@/lib/dashboard/scope-tools";
import { dashboardSession } from "@/lib/dashboard/session";
import { listTokens } from "@/lib/services/tokens/list-tokens";
import { connectionSpend } from "@/lib/services/usage/connection-spend";
import { plural } from "@/lib/wording";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function ConnectPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const { ctx, canAdminister } = await dashboardSession();
  const base = await baseUrl();
  // Admins see and manage every token, members their own.
  const tokens = await listTokens({ ctx });
  const spend = await connectionSpend({ ctx });
  const page = paginate(tokens, params.page);
  const now = ctx.now();
  const { maxTokensPerTenant } = tenantLimits(ctx.env);
  const live = tokens.filter((token) => isLiveToken(token, now)).length;
  const toolSizes = await profileToolSizes();

  return (
    <NewTokenProvider baseUrl={base}>
      <div className="space-y-6">
        <PageHeader
          title="Connect"
          description="Point Claude, Cursor, VS Code or your own agent at this workspace."
        />
        <SectionCard
          title="Your MCP URL"
          description={
            <>
              Streamable HTTP. Send a token in the{" "}
              <code className="font-mono">Authorization: Bearer smx_…</code> header. Clients that take only a
              URL use <code className="font-mono break-all">{base}/api/mcp/t/&lt;token&gt;</code> instead. Add{" "}
              <code className="font-mono">?tools=web_search,fetch</code> to either to list only those tools; a
              token's profile (below) narrows and presets them for every client.
            </>
          }
        >
          <div data-testid="mcp-url">
            <CodeBlock code={`${base}/api/mcp`} label="MCP URL" />
          </div>
        </SectionCard>

        <SectionCard
          title="Tokens"
          description={`A token is shown once when it is created; only its first and last characters are kept for display. This month counts its calls since the 1st (UTC) and what they were charged. ${
            canAdminister
              ? `${live} of at most ${plural(maxTokensPerTenant, "active token")}.`
              : "These are your tokens; each can do at most what your role allows."
          }`}
          contentClassName="space-y-6"
        >
          {live >= maxTokensPerTenant ? (
            <div data-testid="token-cap">
              <EmptyState icon={Ban} title="Token limit reached">
                This workspace has {plural(live, "active token")}, the most the operator allows. Revoke one to
                create another.
              </EmptyState>
            </div>
          ) : (
            <CreateTokenForm scopes={ctx.scopes} scopeTools={TOOLS_BY_SCOPE} />
          )}
          {page.total === 0 ? (
            <EmptyState icon={KeyRound} title="No tokens yet">
              Create one above; it appears here with when it was last used.
            </EmptyState>
          ) : (
            <div>
              <TokenTable
                tokens={page.items}
                now={now}
                showCreator={canAdminister}
                toolSizes={toolSizes}
                spend={spend.tokens}
              />
              <PagePagination label="Token pages" page={page} params={params} />
            </div>
          )}
        </SectionCard>

        <ConnectedApps spend={spend.apps} />

        <Card id="clients">
          <CardHeader>
            <CardTitle>Connect a client</CardTitle>
            <CardDescription>
              Replace <code className="font-mono">smx_YOUR_TOKEN</code> with your token; VS Code asks for it
              instead. A new token's dialog shows these with the token filled in, and a one-click install for
              Cursor.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <ClientConfigs baseUrl={base} />
          </CardContent>
        </Card>
      </div>
    </NewTokenProvider>
  );
}
