import { ScrollText } from "lucide-react";
import { AuditFilterForm } from "@/components/dashboard/audit/audit-filter-form";
import { AuditTable } from "@/components/dashboard/audit/audit-table";
import { PageHeader } from "@/components/dashboard/page-header";
import { Pagination } from "@/components/dashboard/pagination";
import { RestrictedPage } from "@/components/dashboard/restricted-page";
import { Card, CardContent } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { auditFilters, searchAudit } from "@/lib/dashboard/audit-search";
import { withParam } from "@/lib/dashboard/paginate";
import { dashboardSession } from "@/lib/dashboard/session";

type Params = Record<string, string | string[] | undefined>;

export default async function AuditPage({ searchParams }: { searchParams: Promise<Params> }) {
  const params = await searchParams;
  const { ctx, canAdminister } = await dashboardSession();
  if (!canAdminister) {
    return (
      <RestrictedPage
        title="Audit log"
        notice="The audit log is for admins"
        reason="It records every member's changes to tokens, keys, budgets, members and connected apps. Ask a workspace owner or admin."
      />
    );
  }
  const filters = auditFilters.parse(params);
  const { entries, next_cursor } = await searchAudit(ctx, filters);
  const filtered = Boolean(filters.action || filters.range);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Audit log"
        description="Who changed what in this workspace, when, and through what (the dashboard, a token or a connected app), newest first."
      />
      <AuditFilterForm filters={filters} />
      <Card>
        <CardContent className="p-0 sm:p-2">
          {entries.length === 0 ? (
            <div className="p-4">
              <EmptyState icon={ScrollText} title={filtered ? "No entries match" : "No changes yet"}>
                {filtered
                  ? "Widen the filters or clear them."
                  : "Creating a token, storing a key or setting a budget is recorded here."}
              </EmptyState>
            </div>
          ) : (
            <AuditTable entries={entries} />
          )}
          <Pagination
            label="Audit log pages"
            summary={filters.cursor ? "Older entries" : "Newest entries"}
            previousHref={filters.cursor ? withParam(params, "cursor", undefined) : undefined}
            nextHref={next_cursor ? withParam(params, "cursor", next_cursor) : undefined}
          />
        </CardContent>
      </Card>
    </div>
  );
}
