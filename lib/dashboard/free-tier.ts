/** How a provider's free tier reads in the dashboard: in requests, or in dollars of credit. */
import { formatCount, formatUsdPrice } from "./format";

export interface Tier {
  requests?: number;
  usd?: number;
  period: "day" | "month" | "lifetime";
}

/** An amount in the tier's own unit: a count ("1,000"), or dollars to the cent or finer ("$4.995"). */
export const inTierUnit = (tier: Tier, amount: number) =>
  tier.usd !== undefined ? formatUsdPrice(amount) : formatCount(amount);

/** "$5.00 per month", "2,500 once". */
export function freeTierSize(tier: Tier): string {
  const period = tier.period === "lifetime" ? "once" : `per ${tier.period}`;
  return `${inTierUnit(tier, tier.usd ?? tier.requests ?? 0)} ${period}`;
}

/** The share of a free tier its filled-in budget's soft limit warns at. */
const SOFT_SHARE = 0.8;

/**
 * The budget form's draft for a provider's free tier: a request budget, or one in dollars for a tier of
 * credit (Brave's $5 a month), warning at 80%.
 */
export function freeTierDraft(provider: string, tier: Tier) {
  const [metric, limit, soft] =
    tier.usd !== undefined
      ? (["usd", tier.usd, tier.usd * SOFT_SHARE] as const)
      : (["requests", tier.requests ?? 0, Math.floor((tier.requests ?? 0) * SOFT_SHARE)] as const);
  return { provider, metric, period: tier.period, limit: String(limit), soft: String(soft) };
}
