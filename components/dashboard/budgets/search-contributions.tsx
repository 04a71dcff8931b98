import { Gauge } from "lucide-react";
import { SectionCard } from "@/components/dashboard/section-card";
import { Badge } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { formatUsd } from "@/lib/dashboard/format";
import type { searchContributions } from "@/lib/services/budgets/search-contributions";
import { plural } from "@/lib/wording";

type Contributions = Awaited<ReturnType<typeof searchContributions>>;
type Contribution = Contributions["providers"][number];

/** What each search provider adds to this workspace's fused results: what auto mode decides by. */
export function SearchContributions({ contributions }: { contributions: Contributions }) {
  return (
    <SectionCard
      data-testid="search-contributions"
      title="What each search provider adds"
      description={`From the last ${plural(contributions.observations, "search", "searches")} that asked every provider (the newest count most): how many of the top ten results each found, how many only it found, and what one such result costs. Auto mode always asks the free ones, and leaves out paid providers the rest can do without once each is measured.`}
    >
      {contributions.providers.length === 0 ? (
        <EmptyState icon={Gauge} title="Nothing measured yet">
          Searches that ask every provider (fanout mode, and auto mode until it has measured them) fill this
          in.
        </EmptyState>
      ) : (
        <DataTable
          rows={contributions.providers}
          rowKey={(c) => c.provider}
          rowTestId="search-contribution-row"
          columns={[
            { header: "Provider", className: "font-medium", cell: (c: Contribution) => c.provider },
            { header: "Searches", foldBelow: "2xl", numeric: true, cell: (c) => c.searches },
            {
              header: "Top-10 results per search",
              foldBelow: "2xl",
              numeric: true,
              cell: (c) => c.top_results_per_search.toFixed(1),
            },
            {
              header: "Found only by it",
              foldBelow: "3xl",
              numeric: true,
              cell: (c) => c.only_source_per_search.toFixed(1),
            },
            {
              header: "Cost per useful result",
              foldBelow: "3xl",
              numeric: true,
              cell: (c) =>
                c.cost_per_useful_result_usd === null ? "–" : formatUsd(c.cost_per_useful_result_usd),
            },
            {
              header: "Auto mode",
              // A free provider (no price) is always asked; a paid one may be left out once measured.
              cell: (c) =>
                c.cost_per_useful_result_usd === 0 ? (
                  <Badge tone="outline">always asked (free)</Badge>
                ) : c.measured ? (
                  <Badge tone="success">measured</Badge>
                ) : (
                  <Badge tone="warning">measuring</Badge>
                ),
            },
          ]}
        />
      )}
    </SectionCard>
  );
}
