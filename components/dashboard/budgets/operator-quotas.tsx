import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatDateTime, formatRelative } from "@/lib/dashboard/format";
import type { budgetStatus } from "@/lib/services/budgets/budget-status";
import { formatAmount as amount, UsageMeter, usedPercent } from "./usage-meter";

type Quota = Awaited<ReturnType<typeof budgetStatus>>["operator_quotas"][number];

/** The operator's quotas on this workspace's use of its keys, with what is used; nothing when unlimited. */
export function OperatorQuotas({ quotas, now }: { quotas: readonly Quota[]; now: Date }) {
  if (quotas.length === 0) return null;
  return (
    <Card data-testid="operator-quotas">
      <CardHeader>
        <CardTitle>Operator quotas</CardTitle>
        <CardDescription>
          What this workspace may use of the operator's provider keys and model. Calls with a key of your own
          are not counted; once a quota is used up, providers on the operator's keys are skipped until it
          resets (UTC).
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Quota</TableHead>
              <TableHead className="min-w-48">Used</TableHead>
              <TableHead className="text-right">Remaining</TableHead>
              <TableHead>Resets</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {quotas.map((q) => {
              const label = `${q.metric === "usd" ? "USD" : "Requests"} per ${q.period}`;
              return (
                <TableRow key={`${q.metric}:${q.period}`} data-testid="operator-quota-row">
                  <TableCell className="font-medium">{label}</TableCell>
                  <TableCell>
                    <UsageMeter
                      label={label}
                      metric={q.metric}
                      used={q.used}
                      limit={q.limit}
                      warning={usedPercent(q.used, q.limit) >= 80}
                    />
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{amount(q.metric, q.remaining)}</TableCell>
                  <TableCell className="whitespace-nowrap">
                    {formatRelative(q.resets_at, now)}
                    <span className="block text-xs text-muted-foreground">{formatDateTime(q.resets_at)}</span>
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </CardContent>
    </Card>
  );
}
