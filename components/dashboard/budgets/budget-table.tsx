import { Pencil } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { type Column, DataTable } from "@/components/ui/data-table";
import { DestructiveAction } from "@/components/ui/destructive-action";
import { deleteBudgetAction } from "@/lib/dashboard/actions/budgets";
import { budgetLabel } from "@/lib/dashboard/budgets";
import type { listBudgets } from "@/lib/services/budgets/list-budgets";
import { meterColumns } from "./meter-columns";
import { formatAmount } from "./usage-meter";

type Budget = Awaited<ReturnType<typeof listBudgets>>["budgets"][number];

function columns(now: Date): Column<Budget>[] {
  const meter = meterColumns<Budget>({ label: budgetLabel, warning: (b) => b.soft_exceeded, now });
  return [
    { header: "Budget", className: "font-medium", cell: budgetLabel },
    { ...meter.used, foldBelow: "xl" },
    { ...meter.remaining, foldBelow: "2xl" },
    {
      header: "Soft limit",
      foldBelow: "3xl",
      cell: (b) =>
        b.soft === null ? (
          <span className="text-muted-foreground">—</span>
        ) : (
          <span className="flex items-center gap-1.5 tabular-nums">
            {formatAmount(b.metric, b.soft)}
            {b.soft_exceeded ? <Badge tone="warning">reached</Badge> : null}
          </span>
        ),
    },
    { ...meter.resets, foldBelow: "5xl" },
    {
      header: "Actions",
      hideHeader: true,
      align: "end",
      cell: (b) => <BudgetActions budget={b} />,
    },
  ];
}

/**
 * The workspace's budgets: use against the limit, the soft limit, the reset, and edit / delete; narrower,
 * the label and the actions, the figures folded under the label.
 */
export function BudgetTable({ budgets, now }: { budgets: readonly Budget[]; now: Date }) {
  return <DataTable rows={budgets} rowKey={(b) => b.id} rowTestId="budget-row" columns={columns(now)} />;
}

function BudgetActions({ budget }: { budget: Budget }) {
  const label = budgetLabel(budget);
  return (
    <div className="flex justify-end gap-1">
      <Button variant="ghost" size="sm" asChild>
        <Link href={`?edit=${budget.id}#budget-form`} aria-label={`Edit ${label}`}>
          <Pencil aria-hidden /> <span className="@max-xl:sr-only">Edit</span>
        </Link>
      </Button>
      <DestructiveAction
        text="Delete"
        label={`Delete ${label}`}
        title={`Delete the budget “${label}”?`}
        description="Calls are no longer limited by it. Usage so far is kept."
        confirmLabel="Delete budget"
        action={deleteBudgetAction.bind(null, budget.id)}
      />
    </div>
  );
}
