import type { ReactNode } from "react";
import { cn } from "./cn";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "./table";

/** One column of a DataTable: its header and what each row's cell shows. */
export interface Column<Row> {
  header: string;
  /** The header is for screen readers only (an actions column). */
  hideHeader?: boolean;
  /** Right-aligned: figures (with digits of even width), and actions. */
  align?: "end";
  /** Figures: right-aligned with digits of even width. */
  numeric?: boolean;
  /** Classes of the column's header cell. */
  headClassName?: string;
  /** Classes of each of the column's body cells. */
  className?: string;
  cell: (row: Row) => ReactNode;
  /** The cell's tooltip, e.g. the whole of a truncated text. */
  title?: (row: Row) => string | undefined;
}

/** Rows of records under a header row, one cell per column; each row keyed (and test-id'd) as given. */
export function DataTable<Row>({
  rows,
  columns,
  rowKey,
  rowTestId,
}: {
  rows: readonly Row[];
  columns: readonly Column<Row>[];
  rowKey: (row: Row) => string;
  /** The `data-testid` of every body row, or of each. */
  rowTestId?: string | ((row: Row) => string);
}) {
  const end = (column: Column<Row>) => (column.numeric || column.align === "end") && "text-right";
  return (
    <Table>
      <TableHeader>
        <TableRow>
          {columns.map((column) => (
            <TableHead key={column.header} className={cn(end(column), column.headClassName)}>
              {column.hideHeader ? <span className="sr-only">{column.header}</span> : column.header}
            </TableHead>
          ))}
        </TableRow>
      </TableHeader>
      <TableBody>
        {rows.map((row) => (
          <TableRow
            key={rowKey(row)}
            data-testid={typeof rowTestId === "function" ? rowTestId(row) : rowTestId}
          >
            {columns.map((column) => (
              <TableCell
                key={column.header}
                className={cn(end(column), column.numeric && "tabular-nums", column.className)}
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
