import { SectionCard } from "@/components/dashboard/section-card";
import { DataTable } from "@/components/ui/data-table";
import type { budgetStatus } from "@/lib/services/budgets/budget-status";
import { meterColumns } from "./meter-columns";
import { usedPercent } from "./usage-meter";

type Quota = Awaited<ReturnType<typeof budgetStatus>>["operator_quotas"][number];

const quotaLabel = (q: Quota) => `${q.metric === "usd" ? "USD" : "Requests"} per ${q.period}`;

/** The operator's quotas on this workspace's use of its keys, with what is used; nothing when unlimited. */
export function OperatorQuotas({ quotas, now }: { quotas: readonly Quota[]; now: Date }) {
  if (quotas.length === 0) return null;
  const meter = meterColumns<Quota>({
    label: quotaLabel,
    warning: (q) => usedPercent(q.used, q.limit) >= 80,
    now,
  });
  return (
    <SectionCard
      data-testid="operator-quotas"
      title="Operator quotas"
      description="What this workspace may use of the operator's provider keys and model. Calls with a key of your own are not counted; once a quota is used up, providers on the operator's keys are skipped until it resets (UTC)."
    >
      <DataTable
        rows={quotas}
        rowKey={(q) => `${q.metric}:${q.period}`}
        rowTestId="operator-quota-row"
        columns={[
          { header: "Quota", className: "font-medium", cell: quotaLabel },
          meter.used,
          { ...meter.remaining, foldBelow: "2xl" },
          { ...meter.resets, foldBelow: "2xl" },
        ]}
      />
    </SectionCard>
  );
}
