import { ExternalLink } from "lucide-react";
import Link from "next/link";
import { KeyActions } from "@/components/dashboard/keys/key-actions";
import { PageHeader } from "@/components/dashboard/page-header";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Card, CardContent } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { deleteKeyAction, setKeyAction, testKeyAction } from "@/lib/dashboard/actions/keys";
import { formatCount, formatRelative } from "@/lib/dashboard/format";
import { type KeyState, type ProviderRow, providerRows } from "@/lib/dashboard/provider-rows";
import { dashboardSession } from "@/lib/dashboard/session";
import { listKeys } from "@/lib/services/keys/list-keys";
import { type ProviderKind, providerCatalog } from "@/lib/services/providers/catalog";
import { providerStatus } from "@/lib/services/providers/provider-status";

const STATE: Record<KeyState, { tone: BadgeTone; text: string }> = {
  your_key: { tone: "primary", text: "your key" },
  operator_key: { tone: "neutral", text: "operator key" },
  keyless: { tone: "outline", text: "keyless" },
  missing: { tone: "warning", text: "missing" },
  not_configured: { tone: "outline", text: "not configured" },
};
const VERDICT = {
  ok: { tone: "success", text: "works" },
  invalid: { tone: "danger", text: "refused" },
  unknown: { tone: "neutral", text: "untested" },
} as const;
const KINDS: ReadonlyArray<{ value: ProviderKind | undefined; label: string }> = [
  { value: undefined, label: "All" },
  { value: "search", label: "Search" },
  { value: "fetch", label: "Fetch" },
  { value: "answer", label: "Answer" },
  { value: "papers", label: "Papers" },
];

function FreeTier({ row }: { row: ProviderRow }) {
  if (row.freeTier) {
    const period = row.freeTier.period === "lifetime" ? "once" : `per ${row.freeTier.period}`;
    return (
      <span>
        {formatCount(row.freeTier.requests)} {period}
        <span className="block text-xs text-muted-foreground">
          {formatCount(row.freeTier.remaining)} left
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
          <Badge tone={VERDICT[row.key.status].tone}>{VERDICT[row.key.status].text}</Badge>
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

export default async function KeysPage({ searchParams }: { searchParams: Promise<{ kind?: string }> }) {
  const { kind } = await searchParams;
  const { ctx, canAdminister } = await dashboardSession();
  const [status, keys] = await Promise.all([
    providerStatus({ ctx }),
    canAdminister ? listKeys({ ctx }) : null,
  ]);
  const rows = providerRows(status.providers, providerCatalog(), keys).filter(
    (row) => !kind || row.kinds.includes(kind as ProviderKind),
  );
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
      <Card>
        <CardContent className="p-0 sm:p-2">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>Provider</TableHead>
                <TableHead>Key</TableHead>
                <TableHead>Free tier</TableHead>
                <TableHead>Get a key</TableHead>
                <TableHead className="text-right">
                  {canAdminister ? "Actions" : <span className="sr-only">Actions</span>}
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((row) => (
                <TableRow key={row.id} data-testid={`provider-${row.id}`}>
                  <TableCell>
                    <span className="font-medium">{row.name}</span>
                    <span className="block font-mono text-xs text-muted-foreground">
                      {row.id} · {row.kinds.join(", ")}
                    </span>
                  </TableCell>
                  <TableCell>
                    <KeyStatus row={row} now={now} />
                  </TableCell>
                  <TableCell className="whitespace-nowrap">
                    <FreeTier row={row} />
                  </TableCell>
                  <TableCell>
                    {row.link ? (
                      <a
                        href={row.link.signUpUrl}
                        target="_blank"
                        rel="noreferrer"
                        className="inline-flex items-center gap-1 whitespace-nowrap text-primary hover:underline"
                      >
                        Sign up <ExternalLink className="size-3" aria-hidden />
                        <span className="sr-only">for {row.name} (opens in a new tab)</span>
                      </a>
                    ) : null}
                  </TableCell>
                  <TableCell className="text-right">
                    {canAdminister && row.takesKey ? (
                      <KeyActions
                        providerName={row.name}
                        hasKey={row.key !== null}
                        save={setKeyAction.bind(null, row.id)}
                        test={testKeyAction.bind(null, row.id)}
                        remove={deleteKeyAction.bind(null, row.id)}
                      />
                    ) : null}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </CardContent>
      </Card>
    </div>
  );
}
