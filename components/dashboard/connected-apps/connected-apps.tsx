import { Plug, Unplug } from "lucide-react";
import { spendColumn } from "@/components/dashboard/connection-spend";
import { ProfileEditor } from "@/components/dashboard/profiles/profile-editor";
import { SectionCard } from "@/components/dashboard/section-card";
import { Badge } from "@/components/ui/badge";
import { type Column, DataTable } from "@/components/ui/data-table";
import { DestructiveAction } from "@/components/ui/destructive-action";
import { EmptyState } from "@/components/ui/empty-state";
import { revokeConnectedAppAction } from "@/lib/dashboard/actions/oauth";
import { setConnectedAppProfileAction } from "@/lib/dashboard/actions/profiles";
import { formatDateTime, formatRelative } from "@/lib/dashboard/format";
import { profileToolSizes, type ToolSizes } from "@/lib/dashboard/profile-tools";
import { dashboardSession } from "@/lib/dashboard/session";
import { listConnectedApps } from "@/lib/services/oauth/list-connected-apps";
import type { ConnectionSpend } from "@/lib/services/usage/connection-spend";

type ConnectedApp = Awaited<ReturnType<typeof listConnectedApps>>[number];

function columns(
  now: Date,
  showApprover: boolean,
  toolSizes: (scopes: readonly string[]) => ToolSizes,
  spend: ConnectionSpend["apps"],
): Column<ConnectedApp>[] {
  return [
    {
      header: "App",
      className: "font-medium",
      cell: (app) => (
        <>
          {app.clientName}
          <div className="text-xs font-normal text-muted-foreground">
            connected {formatDateTime(app.createdAt)}
          </div>
        </>
      ),
    },
    ...(showApprover
      ? [
          {
            header: "Approved by",
            className: "text-muted-foreground",
            cell: (app: ConnectedApp) => app.approvedBy ?? "a former member",
          },
        ]
      : []),
    {
      header: "Scopes",
      cell: (app) => (
        <div className="flex max-w-56 flex-wrap gap-1">
          {app.scopes.map((scope) => (
            <Badge key={scope} tone="outline">
              {scope}
            </Badge>
          ))}
        </div>
      ),
    },
    {
      header: "Last used",
      className: "whitespace-nowrap text-muted-foreground",
      cell: (app) => (app.lastUsedAt ? formatRelative(app.lastUsedAt, now) : "never"),
    },
    spendColumn((app) => spend[app.id]),
    {
      header: "Actions",
      hideHeader: true,
      align: "end",
      cell: (app) => (
        <div className="flex justify-end gap-1">
          <ProfileEditor
            label={app.clientName}
            profile={app.profile}
            toolSizes={toolSizes(app.scopes)}
            save={setConnectedAppProfileAction.bind(null, app.id)}
          />
          <DestructiveAction
            text="Disconnect"
            label={`Disconnect ${app.clientName}`}
            icon={Unplug}
            title={`Disconnect “${app.clientName}”?`}
            description="Its tokens are refused within seconds and it can no longer renew them; to use Searchmux again it must sign in and be approved anew."
            confirmLabel="Disconnect"
            action={revokeConnectedAppAction.bind(null, app.id)}
          />
        </div>
      ),
    },
  ];
}

/**
 * The Connect page's connected apps: clients that signed in with OAuth (adding Searchmux by its URL),
 * each with its scopes, who approved it, its last use, its spend this month (`spend`, by grant) and a button
 * that disconnects it. Admins see every member's, a member their own.
 */
export async function ConnectedApps({ spend }: { spend: ConnectionSpend["apps"] }) {
  const { ctx, canAdminister } = await dashboardSession();
  const apps = await listConnectedApps({ ctx });
  const toolSizes = await profileToolSizes();
  return (
    <SectionCard
      id="connected-apps"
      title="Connected apps"
      description="Applications that signed in through the browser after you added Searchmux by its URL. Each holds short-lived tokens it renews; disconnecting one stops them within seconds."
    >
      {apps.length === 0 ? (
        <EmptyState icon={Plug} title="No connected apps">
          Add <code className="font-mono">/api/mcp</code> as a custom connector in claude.ai, ChatGPT, Claude
          Desktop, Cursor or VS Code: they open this site to sign in and ask you to approve.
        </EmptyState>
      ) : (
        <DataTable
          rows={apps}
          columns={columns(ctx.now(), canAdminister, toolSizes, spend)}
          rowKey={(app) => app.id}
          rowTestId="connected-app-row"
        />
      )}
    </SectionCard>
  );
}
