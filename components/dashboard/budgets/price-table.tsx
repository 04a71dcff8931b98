import { SectionCard } from "@/components/dashboard/section-card";
import { Badge } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import { ExternalLink } from "@/components/ui/external-link";
import { freeTierSize } from "@/lib/dashboard/free-tier";
import { extraResultsPrice, perCallPrice } from "@/lib/dashboard/prices";
import type { listPrices } from "@/lib/services/providers/list-prices";

type PriceRow = ReturnType<typeof listPrices>[number];

/** The price table calls are charged at, with the page each price was read from and the operator's corrections. */
export function PriceTable({ prices }: { prices: readonly PriceRow[] }) {
  return (
    <SectionCard
      data-testid="price-table"
      title="Provider prices"
      description="What each call is charged, from each provider's own pricing page (the date it was read). The operator corrects an entry with SEARCHMUX_PRICES without a release."
    >
      <DataTable
        rows={prices}
        rowKey={(row) => row.key}
        rowTestId={(row) => `price-${row.key}`}
        columns={[
          {
            header: "Provider",
            className: "font-medium",
            cell: (row) => (
              <>
                {row.key}
                {row.overridden.length > 0 ? (
                  <Badge tone="warning" className="ml-2" title={`sets ${row.overridden.join(", ")}`}>
                    operator override
                  </Badge>
                ) : null}
              </>
            ),
          },
          { header: "Per call", cell: perCallPrice },
          { header: "Extra results", foldBelow: "2xl", cell: extraResultsPrice },
          {
            header: "Free tier",
            foldBelow: "2xl",
            cell: (row) => (row.free_tier ? freeTierSize(row.free_tier) : "–"),
          },
          {
            header: "Source",
            foldBelow: "3xl",
            cell: (row) => (
              <ExternalLink href={row.source} title={row.note}>
                {new URL(row.source).host}
              </ExternalLink>
            ),
          },
          { header: "As of", foldBelow: "3xl", className: "whitespace-nowrap", cell: (row) => row.as_of },
        ]}
      />
    </SectionCard>
  );
}
