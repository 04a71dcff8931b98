import type { Scope } from "@/lib/pipeline/context";

export interface SeedToken {
  name: string;
  /** Default: the product's default scopes (everything but admin). */
  scopes?: Scope[];
  /** Revoked before the server ever sees it, so no cached verification can mask the revocation. */
  revoked?: boolean;
  /** Expires this long after creation; seeding waits until it has. */
  expiresInMs?: number;
}

export interface SeedBudget {
  provider: string;
  metric: "requests" | "usd";
  period: "day" | "month" | "lifetime";
  limit: number;
}

export interface SeedSpec {
  name: string;
  tokens: SeedToken[];
  budgets?: SeedBudget[];
}

export interface SeedResult {
  tenantId: string;
  tokens: Record<string, string>;
}
