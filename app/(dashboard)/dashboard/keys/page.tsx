import { ExternalLink as ExternalLinkIcon, TriangleAlert } from "lucide-react";
import Link from "next/link";
import { KeyActions } from "@/components/dashboard/keys/key-actions";
import { PageHeader } from "@/components/dashboard/page-header";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Card, CardContent } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { DataTable } from "@/components/ui/data-table";
import { ExternalLink } from "@/components/ui/external-link";
import { deleteKeyAction, setKeyAction, testKeyAction } from "@/lib/dashboard/actions/keys";
import { formatDateTime, formatRelative } from "@/lib/dashboard/format";
import { freeTierSize, inTierUnit } from "@/lib/dashboard/free-tier";
import {
  describeEndpoint,
  type KeyState,
  kindsWithoutProvider,
  type ProviderRow,
  providerRows,
} from "@/lib/dashboard/provider-rows";
import { dashboardSession } from "@/lib/dashboard/session";
import { type ProviderKind, providerCatalog } from "@/lib/pipeline/providers/catalog";
import { listKeys } from "@/lib/services/keys/list-keys";
import { providerStatus } from "@/lib/services/providers/provider-status";

const STATE: Record<KeyState, { tone: BadgeTone; text: string }> = {
  your_key: { tone: "primary", text: "your key" },
  operator_key: { tone: "neutral", text: "operator key" },
  keyless: { tone: "outline", text: "keyless" },
  // Optional until a tool has no provider left: the page flags that case once, above the table.
  no_key: { tone: "outline", text: "no key" },
  not_configured: { tone: "outline", text: "not configured" },
};
const VERDICT = {
  ok: { tone: "success", text: "works" },
  invalid: { tone: "danger", text: "refused" },
  unknown: { tone: "neutral", text: "untested" },
} as const;
const KIND_LABEL: Record<ProviderKind, string> = {
  search: "Search",
  fetch: "Fetch",
  answer: "Answer",
  papers: "Papers",
  extract: "Extract",
  images: "Images",
};
const KINDS: ReadonlyArray<{ value: ProviderKind | undefined; label: string }> = [
  { value: undefined, label: "All" },
  ...Object.entries(KIND_LABEL).map(([value, label]) => ({ value: value as ProviderKind, label })),
];

/** The provider, what it serves, and where to sign up for a key of one's own. */
function Provider({ row }: { row: ProviderRow }) {
  return (
    <>
      <span className="font-medium">{row.name}</span>
      <span className="block font-mono text-xs text-muted-foreground">
        {row.id} · {row.kinds.join(", ")}
      </span>
      {row.link ? (
        <ExternalLink href={row.link.signUpUrl} className="inline-flex items-center gap-1 text-xs">
          Sign up <ExternalLinkIcon className="size-3" aria-hidden />
          <span className="sr-only">for {row.name} (opens in a new tab)</span>
        </ExternalLink>
      ) : null}
    </>
  );
}

function FreeTier({ row }: { row: ProviderRow }) {
  if (row.freeTier) {
    return (
      <span>
        {freeTierSize(row.freeTier)}
        <span className="block text-xs text-muted-foreground">
          {inTierUnit(row.freeTier, row.freeTier.remaining)} left
        </span>
      </span>
    );
  }
  const free = !row.takesKey && row.state !== "not_configured";
  return <span className="text-muted-foreground">{row.link?.pricing ?? (free ? "free" : "—")}</span>;
}

function KeyStatus({ row, now }: { row: ProviderRow; now: Date }) {
  const state = STATE[row.state];
  return (
    <div className="flex flex-wrap items-center gap-1.5">
      <Badge tone={state.tone}>{state.text}</Badge>
      {row.key ? (
        <>
          <span className="font-mono text-xs">····{row.key.last4}</span>
          {row.key.endpoint ? (
            <span className="text-xs text-muted-foreground" data-testid="key-endpoint">
              {describeEndpoint(row.key.endpoint)}
            </span>
          ) : null}
          <Badge tone={VERDICT[row.key.status].tone}>{VERDICT[row.key.status].text}</Badge>
          {row.key.quotaUntil ? (
            <span className="text-xs text-warning" data-testid="key-quota">
              quota used up: the provider refused the key for its plan or credit; calls skip it until{" "}
              {formatDateTime(row.key.quotaUntil)}
            </span>
          ) : null}
          {row.key.checkedAt ? (
            <span className="text-xs text-muted-foreground">
              checked {formatRelative(row.key.checkedAt, now)}
            </span>
          ) : null}
        </>
      ) : null}
    </div>
  );
}

/** The one thing worth a warning: a kind of tool no provider can serve until the workspace adds a key. */
function NeededKeys({ rows }: { rows: readonly ProviderRow[] }) {
  const needed = kindsWithoutProvider(rows);
  if (needed.length === 0) return null;
  return (
    <ul
      className="space-y-1 rounded-md border border-warning/40 bg-warning/10 p-3 text-sm"
      data-testid="needed-keys"
    >
      {needed.map(({ kind, needsKeyOf }) => (
        <li key={kind} className="flex items-start gap-2">
          <TriangleAlert className="mt-0.5 size-4 shrink-0 text-warning" aria-hidden />
          <span>
            <span className="font-medium">{KIND_LABEL[kind]}</span> has no provider yet: add a key for one of{" "}
            {needsKeyOf.map((row) => row.name).join(", ")}. The other providers without a key are optional.
          </span>
        </li>
      ))}
    </ul>
  );
}

export default async function KeysPage({ searchParams }: { searchParams: Promise<{ kind?: string }> }) {
  const { kind } = await searchParams;
  const { ctx, canAdminister } = await dashboardSession();
  const [status, keys] = await Promise.all([
    providerStatus({ ctx }),
    canAdminister ? listKeys({ ctx }) : null,
  ]);
  const allRows = providerRows(status.providers, providerCatalog(), keys);
  const rows = allRows.filter((row) => !kind || row.kinds.includes(kind as ProviderKind));
  const now = ctx.now();

  return (
    <div className="space-y-6">
      <PageHeader
        title="Provider keys"
        description={
          canAdminister
            ? "Every provider and whose key pays for it. Your own key takes precedence over the operator's; keyless providers need none."
            : "Every provider and whose key pays for it. Workspace owners and admins add and change keys."
        }
      />
      <nav aria-label="Provider kinds" className="flex flex-wrap gap-1">
        {KINDS.map(({ value, label }) => (
          <Link
            key={label}
            href={value ? `?kind=${value}` : "?"}
            aria-current={kind === value ? "page" : undefined}
            className={cn(
              "rounded-md px-3 py-1 text-sm text-muted-foreground hover:bg-accent",
              kind === value && "bg-accent font-medium text-foreground",
            )}
          >
            {label}
          </Link>
        ))}
      </nav>
      <NeededKeys rows={allRows} />
      <Card>
        <CardContent className="p-0 sm:p-2">
          <DataTable
            rows={rows}
            rowKey={(row) => row.id}
            rowTestId={(row) => `provider-${row.id}`}
            columns={[
              { header: "Provider", cell: (row) => <Provider row={row} /> },
              { header: "Key", foldBelow: "2xl", cell: (row) => <KeyStatus row={row} now={now} /> },
              {
                header: "Free tier",
                foldBelow: "3xl",
                className: "whitespace-nowrap",
                cell: (row) => <FreeTier row={row} />,
              },
              {
                header: "Actions",
                hideHeader: !canAdminister,
                align: "end",
                cell: (row) =>
                  canAdminister && row.takesKey ? (
                    <KeyActions
                      providerName={row.name}
                      hasKey={row.key !== null}
                      asksForModel={row.configuredByWorkspace}
                      save={setKeyAction.bind(null, row.id)}
                      test={testKeyAction.bind(null, row.id)}
                      remove={deleteKeyAction.bind(null, row.id)}
                    />
                  ) : null,
              },
            ]}
          />
        </CardContent>
      </Card>
    </div>
  );
}
