/**
 * What admission (admission.ts) and the operator quotas (operator-quota.ts) share: the limits a charge is
 * checked against (an exhausted one is reported as capabilities.ts' `ExhaustedBudget`).
 */
import type { Period } from "@/lib/pipeline/capabilities";

/** A hard limit on one scope's counters: a tenant's budget, or an operator quota (budgetId null). */
export interface Limit {
  budgetId: string | null;
  /** A provider id, `*`, or OPERATOR_SCOPE. */
  provider: string;
  metric: "requests" | "usd";
  period: Period;
  /** Requests, or micro-dollars. */
  hardLimit: number;
  softLimit: number | null;
  anchorDay: number;
}
