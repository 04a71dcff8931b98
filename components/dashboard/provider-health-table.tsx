import type { ReactNode } from "react";
import { cn } from "@/components/ui/cn";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatCount, formatDuration, formatPercent } from "@/lib/dashboard/format";

/** One column after the provider's name: its header and what each provider's cell shows. */
export interface ProviderColumn<Row> {
  header: string;
  /** Figures: right-aligned with digits of even width. */
  numeric?: boolean;
  className?: string;
  cell: (row: Row) => ReactNode;
  /** The cell's tooltip, e.g. the whole of a truncated text. */
  title?: (row: Row) => string | undefined;
}

/** A table of providers, one a row, by name and then the given columns. */
export function ProviderHealthTable<Row extends { provider: string; name: string }>({
  rows,
  columns,
}: {
  rows: readonly Row[];
  columns: readonly ProviderColumn<Row>[];
}) {
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Provider</TableHead>
          {columns.map((column) => (
            <TableHead key={column.header} className={column.numeric ? "text-right" : undefined}>
              {column.header}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row) => (
          <TableRow key={row.provider}>
            <TableCell className="font-medium">{row.name}</TableCell>
            {columns.map((column) => (
              <TableCell
                key={column.header}
                className={cn(column.numeric && "text-right tabular-nums", column.className)}
                title={column.title?.(row)}
              >
                {column.cell(row)}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

const NONE = "—";

/** A count of calls (or errors, timeouts…). */
export const countColumn = <Row,>(header: string, count: (row: Row) => number): ProviderColumn<Row> => ({
  header,
  numeric: true,
  cell: (row) => formatCount(count(row)),
});

/** The share of calls that answered; a dash without calls. */
export const successColumn = <Row,>(rate: (row: Row) => number | null): ProviderColumn<Row> => ({
  header: "Success",
  numeric: true,
  cell: (row) => {
    const value = rate(row);
    return value === null ? NONE : formatPercent(value);
  },
});

/** A latency; a dash without calls. */
export const durationColumn = <Row,>(
  header: string,
  ms: (row: Row) => number | null,
): ProviderColumn<Row> => ({
  header,
  numeric: true,
  cell: (row) => {
    const value = ms(row);
    return value === null ? NONE : formatDuration(value);
  },
});
