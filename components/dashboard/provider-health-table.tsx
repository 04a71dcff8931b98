import { type Column, DataTable } from "@/components/ui/data-table";
import { formatCount, formatDuration, formatPercent } from "@/lib/dashboard/format";

/** A table of providers, one a row, by name and then the given columns. */
export function ProviderHealthTable<Row extends { provider: string; name: string }>({
  rows,
  columns,
}: {
  rows: readonly Row[];
  columns: readonly Column<Row>[];
}) {
  return (
    <DataTable
      rows={rows}
      rowKey={(row) => row.provider}
      columns={[{ header: "Provider", className: "font-medium", cell: (row) => row.name }, ...columns]}
    />
  );
}

const NONE = "—";

/** A count of calls (or errors, timeouts…); folded on a phone. */
export const countColumn = <Row,>(header: string, count: (row: Row) => number): Column<Row> => ({
  header,
  foldBelow: "2xl",
  numeric: true,
  cell: (row) => formatCount(count(row)),
});

/** The share of calls that answered; a dash without calls. */
export const successColumn = <Row,>(rate: (row: Row) => number | null): Column<Row> => ({
  header: "Success",
  numeric: true,
  cell: (row) => {
    const value = rate(row);
    return value === null ? NONE : formatPercent(value);
  },
});

/** A latency; a dash without calls; folded on a phone. */
export const durationColumn = <Row,>(header: string, ms: (row: Row) => number | null): Column<Row> => ({
  header,
  foldBelow: "2xl",
  numeric: true,
  cell: (row) => {
    const value = ms(row);
    return value === null ? NONE : formatDuration(value);
  },
});
