import { Building2 } from "lucide-react";
import Form from "next/form";
import { Chart } from "@/components/dashboard/charts/chart";
import { PageHeader } from "@/components/dashboard/page-header";
import { Pagination } from "@/components/dashboard/pagination";
import {
  countColumn,
  ProviderHealthTable,
  successColumn,
} from "@/components/dashboard/provider-health-table";
import { ProviderLatencyChart } from "@/components/dashboard/provider-latency-chart";
import { ProviderStatusBadge } from "@/components/dashboard/provider-status-badge";
import { RestrictedPage } from "@/components/dashboard/restricted-page";
import { SectionCard } from "@/components/dashboard/section-card";
import { Button } from "@/components/ui/button";
import { type Column, DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/input";
import {
  formatCount,
  formatDateTime,
  formatDuration,
  formatRelative,
  formatUsd,
} from "@/lib/dashboard/format";
import { withParam } from "@/lib/dashboard/paginate";
import { userSystemContext } from "@/lib/dashboard/session";
import { listTenants } from "@/lib/services/admin/list-tenants";
import { isOperator } from "@/lib/services/admin/operator";
import { providerHealthAcrossTenants } from "@/lib/services/admin/provider-health-across-tenants";
import { plural } from "@/lib/wording";

type Params = Promise<Record<string, string | string[] | undefined>>;

const PER_PAGE = 25;

type ProviderRow = Awaited<ReturnType<typeof providerHealthAcrossTenants>>["providers"][number];

const HEALTH_COLUMNS: Column<ProviderRow>[] = [
  { header: "Status", cell: (p) => <ProviderStatusBadge state={p.status} /> },
  countColumn("Calls", (p) => p.attempts),
  successColumn((p) => p.success_rate),
  countColumn("Errors", (p) => p.errors),
  countColumn("Timeouts", (p) => p.timeouts),
  countColumn("Skipped", (p) => p.skipped),
  { header: "Workspaces", foldBelow: "5xl", numeric: true, cell: (p) => p.tenants },
  {
    header: "p50 / p95",
    foldBelow: "3xl",
    numeric: true,
    className: "whitespace-nowrap",
    cell: (p) =>
      p.p50_ms === null || p.p95_ms === null
        ? "—"
        : `${formatDuration(p.p50_ms)} / ${formatDuration(p.p95_ms)}`,
  },
  {
    header: "Last error",
    foldBelow: "5xl",
    className: "max-w-64 truncate text-xs text-muted-foreground",
    cell: (p) => p.last_error ?? "—",
    title: (p) => p.last_error ?? undefined,
  },
];

type TenantRow = Awaited<ReturnType<typeof listTenants>>["tenants"][number];

const count = (header: string, value: (t: TenantRow) => number): Column<TenantRow> => ({
  header,
  numeric: true,
  cell: (t) => formatCount(value(t)),
});

const tenantColumns = (now: Date): Column<TenantRow>[] => [
  {
    header: "Workspace",
    cell: (t) => (
      <>
        <span className="font-medium">{t.name}</span>
        <span className="block font-mono text-xs text-muted-foreground">{t.id}</span>
      </>
    ),
  },
  { ...count("Members", (t) => t.members), foldBelow: "3xl" },
  { ...count("Tokens", (t) => t.active_tokens), foldBelow: "3xl" },
  { ...count("Keys", (t) => t.keys), foldBelow: "3xl" },
  { ...count("Requests today", (t) => t.requests_today), foldBelow: "4xl" },
  { ...count("Requests this month", (t) => t.requests_month), foldBelow: "2xl" },
  { header: "Spend this month", numeric: true, cell: (t) => formatUsd(t.usd_month) },
  { ...count("Calls, 30 days", (t) => t.calls_30d), foldBelow: "5xl" },
  {
    header: "Last call",
    foldBelow: "2xl",
    className: "whitespace-nowrap text-muted-foreground",
    title: (t) => (t.last_call_at ? formatDateTime(t.last_call_at) : undefined),
    cell: (t) => (t.last_call_at ? formatRelative(t.last_call_at, now) : "never"),
  },
];

export default async function AdminPage({ searchParams }: { searchParams: Params }) {
  const params = await searchParams;
  const ctx = await userSystemContext();
  if (!(await isOperator({ ctx }))) {
    return (
      <RestrictedPage
        title="Admin"
        notice="For the operator of this deployment"
        reason={
          <>
            Cross-tenant pages are open to the addresses in{" "}
            <code className="font-mono">SEARCHMUX_OPERATOR_EMAILS</code>.
          </>
        }
      />
    );
  }
  const query = typeof params.q === "string" ? params.q : undefined;
  const page = Math.max(1, Number.parseInt(String(params.page ?? "1"), 10) || 1);
  const [tenants, health] = await Promise.all([
    listTenants({ ctx, input: { page, per_page: PER_PAGE, query } }),
    providerHealthAcrossTenants({ ctx, input: { hours: 24 } }),
  ]);
  const pages = Math.max(1, Math.ceil(tenants.total / PER_PAGE));
  const now = ctx.now();

  return (
    <div className="space-y-6">
      <PageHeader
        title="Admin"
        description="Every workspace on this deployment, and how the providers are doing for all of them."
      />

      <SectionCard
        title="Tenants"
        description={`${plural(tenants.total, "workspace")}; usage and spend are this UTC month's.`}
      >
        <Form
          action="/dashboard/admin"
          className="mb-4 flex max-w-md gap-2"
          role="search"
          aria-label="Find a workspace"
        >
          <Input
            name="q"
            type="search"
            defaultValue={query}
            placeholder="Workspace name"
            aria-label="Workspace name"
          />
          <Button type="submit" variant="outline">
            Search
          </Button>
        </Form>
        {tenants.tenants.length === 0 ? (
          <EmptyState icon={Building2} title="No workspace matches" />
        ) : (
          <DataTable
            rows={tenants.tenants}
            rowKey={(t) => t.id}
            rowTestId="tenant-row"
            columns={tenantColumns(now)}
          />
        )}
        <Pagination
          label="Tenant pages"
          summary={`Page ${page} of ${pages}`}
          previousHref={page > 1 ? withParam(params, "page", String(page - 1)) : undefined}
          nextHref={page < pages ? withParam(params, "page", String(page + 1)) : undefined}
        />
      </SectionCard>

      <div className="grid gap-4 lg:grid-cols-2">
        <SectionCard title="Spend this month by workspace" description="The workspaces on this page.">
          <Chart
            kind="bar"
            horizontal
            label="Spend this month in US dollars by workspace"
            data={tenants.tenants
              .slice(0, 10)
              .map((t) => ({ tenant: t.name, usd: t.usd_month, requests: t.requests_month }))}
            category="tenant"
            format="usd"
            height={Math.max(160, Math.min(tenants.tenants.length, 10) * 36)}
            series={[{ key: "usd", label: "Spend", color: 2 }]}
          />
        </SectionCard>
        <SectionCard
          title="Provider latency, all workspaces"
          description="p50 and p95 over the last 24 hours."
        >
          <ProviderLatencyChart
            label="Provider latency p50 and p95 in milliseconds, all workspaces, last 24 hours"
            providers={health.providers}
            empty={<EmptyState icon={Building2} title="No provider calls in the last 24 hours" />}
          />
        </SectionCard>
      </div>

      <SectionCard
        title="Provider health, all workspaces"
        description="Last 24 hours, from every workspace's traces."
      >
        {health.providers.length === 0 ? (
          <EmptyState icon={Building2} title="No provider calls in the last 24 hours" />
        ) : (
          <ProviderHealthTable rows={health.providers} columns={HEALTH_COLUMNS} />
        )}
      </SectionCard>
    </div>
  );
}
