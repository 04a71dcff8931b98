import { Ban, KeyRound } from "lucide-react";
import { ClientConfigs } from "@/components/client-configs";
import { PageHeader } from "@/components/dashboard/page-header";
import { PagePagination } from "@/components/dashboard/page-pagination";
import { RestrictedNotice } from "@/components/dashboard/restricted-notice";
import { CreateTokenForm } from "@/components/dashboard/tokens/create-token-form";
import { NewTokenProvider } from "@/components/dashboard/tokens/new-token";
import { TokenActions } from "@/components/dashboard/tokens/token-actions";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { CodeBlock } from "@/components/ui/code-block";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { tenantLimits } from "@/lib/config";
import { revokeTokenAction, rotateTokenAction } from "@/lib/dashboard/actions/tokens";
import { baseUrl } from "@/lib/dashboard/base-url";
import { isLiveToken } from "@/lib/dashboard/checklist";
import { formatDateTime, formatRelative } from "@/lib/dashboard/format";
import { paginate } from "@/lib/dashboard/paginate";
import { dashboardSession } from "@/lib/dashboard/session";
import { listTokens } from "@/lib/services/tokens/list-tokens";

type Token = Awaited<ReturnType<typeof listTokens>>[number];
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

function TokenStatus({ token, now }: { token: Token; now: Date }) {
  if (token.revokedAt) return <Badge tone="danger">revoked</Badge>;
  if (!isLiveToken(token, now)) return <Badge tone="warning">expired</Badge>;
  return <Badge tone="success">active</Badge>;
}

function TokenTable({ tokens, now }: { tokens: readonly Token[]; now: Date }) {
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Name</TableHead>
          <TableHead>Token</TableHead>
          <TableHead>Scopes</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Last used</TableHead>
          <TableHead>Expires</TableHead>
          <TableHead className="text-right">
            <span className="sr-only">Actions</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {tokens.map((token) => (
          <TableRow key={token.id} data-testid="token-row">
            <TableCell className="font-medium">
              {token.name}
              <div className="text-xs font-normal text-muted-foreground">
                created {formatDateTime(token.createdAt)}
              </div>
            </TableCell>
            <TableCell className="font-mono text-xs whitespace-nowrap">
              {token.displayStart}…{token.last4}
            </TableCell>
            <TableCell>
              <div className="flex max-w-56 flex-wrap gap-1">
                {token.scopes.map((scope) => (
                  <Badge key={scope} tone="outline">
                    {scope}
                  </Badge>
                ))}
              </div>
            </TableCell>
            <TableCell>
              <TokenStatus token={token} now={now} />
            </TableCell>
            <TableCell className="whitespace-nowrap text-muted-foreground">
              {token.lastUsedAt ? formatRelative(token.lastUsedAt, now) : "never"}
            </TableCell>
            <TableCell className="whitespace-nowrap text-muted-foreground">
              {token.expiresAt ? formatDateTime(token.expiresAt) : "never"}
            </TableCell>
            <TableCell>
              {token.revokedAt ? null : (
                <TokenActions
                  name={token.name}
                  rotate={rotateTokenAction.bind(null, token.id)}
                  revoke={revokeTokenAction.bind(null, token.id)}
                />
              )}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

export default async function ConnectPage({ searchParams }: { searchParams: SearchParams }) {
  const params = await searchParams;
  const { ctx, canAdminister } = await dashboardSession();
  const base = await baseUrl();
  const tokens = canAdminister ? await listTokens({ ctx }) : null;
  const page = tokens && paginate(tokens, params.page);
  const now = ctx.now();
  const { maxTokensPerTenant } = tenantLimits(ctx.env);
  const live = tokens?.filter((token) => isLiveToken(token, now)).length ?? 0;

  return (
    <NewTokenProvider baseUrl={base}>
      <div className="space-y-6">
        <PageHeader
          title="Connect"
          description="Point Claude, Cursor, VS Code or your own agent at this workspace."
        />
        <Card>
          <CardHeader>
            <CardTitle>Your MCP URL</CardTitle>
            <CardDescription>
              Streamable HTTP. Send a token in the{" "}
              <code className="font-mono">Authorization: Bearer smx_…</code> header. Clients that take only a
              URL use <code className="font-mono">{base}/api/mcp/t/&lt;token&gt;</code> instead.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <div data-testid="mcp-url">
              <CodeBlock code={`${base}/api/mcp`} label="MCP URL" />
            </div>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>Tokens</CardTitle>
            <CardDescription>
              A token is shown once when it is created; only its first and last characters are kept for
              display. {tokens ? `${live} of at most ${maxTokensPerTenant} active tokens.` : null}
            </CardDescription>
          </CardHeader>
          <CardContent className="space-y-6">
            {page === null ? (
              <RestrictedNotice title="Tokens are managed by admins">
                Ask a workspace owner or admin for a token with the <code className="font-mono">mcp</code>{" "}
                scope, then use it in one of the configurations below.
              </RestrictedNotice>
            ) : (
              <>
                {live >= maxTokensPerTenant ? (
                  <div data-testid="token-cap">
                    <EmptyState icon={Ban} title="Token limit reached">
                      This workspace has {live} active tokens, the most the operator allows. Revoke one to
                      create another.
                    </EmptyState>
                  </div>
                ) : (
                  <CreateTokenForm />
                )}
                {page.total === 0 ? (
                  <EmptyState icon={KeyRound} title="No tokens yet">
                    Create one above; it appears here with when it was last used.
                  </EmptyState>
                ) : (
                  <div>
                    <TokenTable tokens={page.items} now={now} />
                    <PagePagination label="Token pages" page={page} params={params} />
                  </div>
                )}
              </>
            )}
          </CardContent>
        </Card>

        <Card id="clients">
          <CardHeader>
            <CardTitle>Connect a client</CardTitle>
            <CardDescription>
              Replace <code className="font-mono">smx_YOUR_TOKEN</code> with your token (a new token's dialog
              shows these with the token filled in).
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
