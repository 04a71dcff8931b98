import { spendColumn } from "@/components/dashboard/connection-spend";
import { ProfileEditor } from "@/components/dashboard/profiles/profile-editor";
import { Badge } from "@/components/ui/badge";
import { type Column, DataTable } from "@/components/ui/data-table";
import { setTokenProfileAction } from "@/lib/dashboard/actions/profiles";
import { revokeTokenAction, rotateTokenAction } from "@/lib/dashboard/actions/tokens";
import { isLiveToken } from "@/lib/dashboard/checklist";
import { formatDateTime, formatRelative } from "@/lib/dashboard/format";
import type { ToolSizes } from "@/lib/dashboard/profile-tools";
import type { listTokens } from "@/lib/services/tokens/list-tokens";
import type { ConnectionSpend } from "@/lib/services/usage/connection-spend";
import { TokenActions } from "./token-actions";

type Token = Awaited<ReturnType<typeof listTokens>>[number];

function TokenStatus({ token, now }: { token: Token; now: Date }) {
  if (token.revokedAt) return <Badge tone="danger">revoked</Badge>;
  if (!isLiveToken(token, now)) return <Badge tone="warning">expired</Badge>;
  return <Badge tone="success">active</Badge>;
}

const muted = "whitespace-nowrap text-muted-foreground";

const CREATOR: Column<Token> = {
  header: "Created by",
  className: "text-muted-foreground",
  cell: (t) => (t.createdBy === null ? "the operator" : (t.createdByName ?? "a former member")),
};

const columns = (
  now: Date,
  showCreator: boolean,
  toolSizes: (scopes: readonly string[]) => ToolSizes,
  spend: ConnectionSpend["tokens"],
): Column<Token>[] => [
  {
    header: "Name",
    className: "font-medium",
    cell: (t) => (
      <>
        {t.name}
        <div className="text-xs font-normal text-muted-foreground">created {formatDateTime(t.createdAt)}</div>
      </>
    ),
  },
  ...(showCreator ? [CREATOR] : []),
  {
    header: "Token",
    className: "font-mono text-xs whitespace-nowrap",
    cell: (t) => `${t.displayStart}…${t.last4}`,
  },
  {
    header: "Scopes",
    cell: (t) => (
      <div className="flex max-w-56 flex-wrap gap-1">
        {t.scopes.map((scope) => (
          <Badge key={scope} tone="outline">
            {scope}
          </Badge>
        ))}
      </div>
    ),
  },
  { header: "Status", cell: (t) => <TokenStatus token={t} now={now} /> },
  {
    header: "Last used",
    className: muted,
    cell: (t) => (t.lastUsedAt ? formatRelative(t.lastUsedAt, now) : "never"),
  },
  {
    header: "Expires",
    className: muted,
    cell: (t) => (t.expiresAt ? formatDateTime(t.expiresAt) : "never"),
  },
  spendColumn((t) => spend[t.id]),
  {
    header: "Actions",
    hideHeader: true,
    align: "end",
    cell: (t) =>
      t.revokedAt ? null : (
        <div className="flex justify-end gap-1">
          <ProfileEditor
            label={t.name}
            profile={t.profile}
            toolSizes={toolSizes(t.scopes)}
            save={setTokenProfileAction.bind(null, t.id)}
          />
          <TokenActions
            name={t.name}
            rotate={rotateTokenAction.bind(null, t.id)}
            revoke={revokeTokenAction.bind(null, t.id)}
          />
        </div>
      ),
  },
];

/**
 * `showCreator`: the viewer sees everyone's tokens (admins), each with the member who created it.
 * `toolSizes`: the tools a token's scopes allow, for its profile editor. `spend`: each token's this month.
 */
export function TokenTable({
  tokens,
  now,
  showCreator,
  toolSizes,
  spend,
}: {
  tokens: readonly Token[];
  now: Date;
  showCreator: boolean;
  toolSizes: (scopes: readonly string[]) => ToolSizes;
  spend: ConnectionSpend["tokens"];
}) {
  return (
    <DataTable
      rows={tokens}
      rowKey={(t) => t.id}
      rowTestId="token-row"
      columns={columns(now, showCreator, toolSizes, spend)}
    />
  );
}
