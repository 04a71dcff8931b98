/**
 * What admission (admission.ts) and the operator quotas (operator-quota.ts) share: the limits a charge is
 * checked against, and how an exhausted one is reported.
 */
import type { Period } from "./periods";

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

export interface ExhaustedBudget {
  /** A budget the tenant set, or a quota the operator puts on the use of its keys. */
  kind: "budget" | "operator_quota";
  /** The tenant's budget; null for an operator quota. */
  budgetId: string | null;
  /** The budget's provider or `*`; `*` for an operator quota (it counts every provider). */
  provider: string;
  metric: "requests" | "usd";
  period: Period;
  limit: number;
  resetsAt: Date | null;
}
