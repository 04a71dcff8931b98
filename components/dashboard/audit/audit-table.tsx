import { Badge } from "@/components/ui/badge";
import { type Column, DataTable } from "@/components/ui/data-table";
import type { searchAudit } from "@/lib/dashboard/audit-search";
import { formatDateTime } from "@/lib/dashboard/format";

type Entry = Awaited<ReturnType<typeof searchAudit>>["entries"][number];

const VIA: Readonly<Record<string, string>> = {
  session: "dashboard",
  token: "token",
  connected_app: "connected app",
  oauth_client: "OAuth client",
  operator: "operator CLI",
  system: "background job",
};

/** Who acted and through what: the member, then the token or connected app they used. */
function Actor({ entry }: { entry: Entry }) {
  const { actor } = entry;
  const through = actor.token_name ?? actor.client_id;
  return (
    <div className="flex flex-col gap-0.5">
      <span className="font-medium">
        {actor.user_name ??
          (actor.via === "operator" ? "Operator" : actor.via === "system" ? "Searchmux" : "Unknown")}
      </span>
      <span className="text-xs text-muted-foreground">
        {VIA[actor.via] ?? actor.via}
        {through ? ` · ${through}` : ""}
      </span>
    </div>
  );
}

/** The details as `name: value` pairs, values shortened: a glance, not a dump. */
function describeDetails(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(", ") : JSON.stringify(value)}`)
    .join(" · ");
}

const COLUMNS: Column<Entry>[] = [
  { header: "When", className: "whitespace-nowrap", cell: (entry) => formatDateTime(entry.created_at) },
  { header: "Who", foldBelow: "2xl", cell: (entry) => <Actor entry={entry} /> },
  { header: "Action", cell: (entry) => <Badge>{entry.action}</Badge> },
  {
    header: "Details",
    foldBelow: "2xl",
    className: "max-w-80 truncate text-muted-foreground",
    title: (entry) => describeDetails(entry.details),
    cell: (entry) => describeDetails(entry.details) || entry.target_type,
  },
];

/**
 * Audit entries newest first: when, who (through what), the action and what it changed; on a phone the when
 * and the action, with who and the details folded under the when.
 */
export function AuditTable({ entries }: { entries: readonly Entry[] }) {
  return <DataTable rows={entries} rowKey={(entry) => entry.id} rowTestId="audit-row" columns={COLUMNS} />;
}
