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

/** A provider key of the workspace's own (its free tier becomes a budget, as in the dashboard). */
export interface SeedKey {
  provider: string;
  key: string;
}

/** An invitation left pending, or (with `userId`, a seeded user's) accepted by that user. */
export interface SeedInvitation {
  email: string;
  role: "admin" | "member";
  userId?: string;
}

interface SeedContents {
  tokens: SeedToken[];
  budgets?: SeedBudget[];
  keys?: SeedKey[];
  invitations?: SeedInvitation[];
}

/** A new workspace named `name`, or rows added to the workspace `tenantId` (a seeded user's own, say). */
export type SeedSpec = SeedContents & ({ name: string } | { tenantId: string });

export interface SeedResult {
  tenantId: string;
  tokens: Record<string, string>;
  /** Each invitation's link secret, by email. */
  invitations: Record<string, string>;
}
