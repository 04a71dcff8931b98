import type { ReactNode } from "react";
import { cn } from "./cn";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "./table";

/** Widths of the table's container (Tailwind's container sizes) below which a column gives way. */
type FoldWidth = "xl" | "2xl" | "3xl" | "4xl" | "5xl";

/** The column's own cells from the width on (class names spelled out for Tailwind). */
const SHOWN_FROM: Record<FoldWidth, string> = {
  xl: "hidden @xl:table-cell",
  "2xl": "hidden @2xl:table-cell",
  "3xl": "hidden @3xl:table-cell",
  "4xl": "hidden @4xl:table-cell",
  "5xl": "hidden @5xl:table-cell",
};
/** Its folded copy under the first column's cell, up to the width. */
const FOLDED_UNTIL: Record<FoldWidth, string> = {
  xl: "@xl:hidden",
  "2xl": "@2xl:hidden",
  "3xl": "@3xl:hidden",
  "4xl": "@4xl:hidden",
  "5xl": "@5xl:hidden",
};

/** One column of a DataTable: its header and what each row's cell shows. */
export interface Column<Row> {
  header: string;
  /** The header is for screen readers only (an actions column). */
  hideHeader?: boolean;
  /** Right-aligned: figures (with digits of even width), and actions. */
  align?: "end";
  /** Figures: right-aligned with digits of even width. */
  numeric?: boolean;
  /**
   * A secondary column: narrower than this the table hides it and shows its cell under the first column's,
   * labelled with the header, so the table fits without scrolling sideways. The cell is then rendered twice
   * (one copy hidden), so a folding column holds no controls and no test ids: actions never fold.
   */
  foldBelow?: FoldWidth;
  /** Classes of the column's header cell. */
  headClassName?: string;
  /** Classes of each of the column's body cells. */
  className?: string;
  cell: (row: Row) => ReactNode;
  /** The cell's tooltip, e.g. the whole of a truncated text. */
  title?: (row: Row) => string | undefined;
}

/** The folding columns' cells of a row as "header value" lines, each shown only while its column is hidden. */
function Folded<Row>({ row, columns }: { row: Row; columns: readonly Column<Row>[] }) {
  return (
    <dl className="text-xs font-normal whitespace-normal">
      {columns.map((column) =>
        column.foldBelow ? (
          <div
            key={column.header}
            className={cn("flex flex-wrap items-baseline gap-x-1.5 pt-1", FOLDED_UNTIL[column.foldBelow])}
          >
            <dt className="text-muted-foreground">{column.header}</dt>
            <dd className="min-w-0 [overflow-wrap:anywhere]">{column.cell(row)}</dd>
          </div>
        ) : null,
      )}
    </dl>
  );
}

/**
 * Rows of records under a header row, one cell per column; each row keyed (and test-id'd) as given.
 * Secondary columns (`foldBelow`) fold into the first column on narrow containers.
 */
export function DataTable<Row>({
  rows,
  columns,
  rowKey,
  rowTestId,
  label,
}: {
  rows: readonly Row[];
  columns: readonly Column<Row>[];
  rowKey: (row: Row) => string;
  /** The `data-testid` of every body row, or of each. */
  rowTestId?: string | ((row: Row) => string);
  /** Names the table for assistive technology, where no heading right above it does. */
  label?: string;
}) {
  const end = (column: Column<Row>) => (column.numeric || column.align === "end") && "text-right";
  const shown = (column: Column<Row>) => column.foldBelow && SHOWN_FROM[column.foldBelow];
  const folds = columns.some((column) => column.foldBelow);
  return (
    <Table aria-label={label}>
      <TableHeader>
        <TableRow>
          {columns.map((column) => (
            <TableHead key={column.header} className={cn(end(column), shown(column), column.headClassName)}>
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
            {columns.map((column, index) => (
              <TableCell
                key={column.header}
                className={cn(end(column), column.numeric && "tabular-nums", shown(column), column.className)}
                title={column.title?.(row)}
              >
                {column.cell(row)}
                {index === 0 && folds ? <Folded row={row} columns={columns} /> : null}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
