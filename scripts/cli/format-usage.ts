import type { listBudgets } from "@/lib/services/budgets/list-budgets";

type Status = Awaited<ReturnType<typeof listBudgets>>;

const amount = (metric: string, value: number) => (metric === "usd" ? `$${value.toFixed(4)}` : String(value));

/** `usage` output: budgets with what is left and when they reset, then per-provider usage. */
export function formatUsage(status: Status): string {
  const lines = ["budgets:"];
  if (status.budgets.length === 0) lines.push("  none");
  for (const b of status.budgets) {
    const soft =
      b.soft === null ? "" : ` (soft ${amount(b.metric, b.soft)}${b.soft_exceeded ? ", exceeded" : ""})`;
    const reset = b.resets_at ? `resets ${b.resets_at}` : "lifetime";
    lines.push(
      `  ${b.provider} ${b.metric}/${b.period}: ${amount(b.metric, b.used)} of ${amount(b.metric, b.limit)}${soft}, ${amount(b.metric, b.remaining)} left, ${reset}`,
    );
  }
  lines.push("providers:");
  if (status.providers.length === 0) lines.push("  no calls yet");
  for (const p of status.providers) {
    const tier = p.free_tier;
    // A tier of dollars of credit (Brave's $5 a month) reads in dollars.
    const unit = tier?.usd !== undefined ? "usd" : "requests";
    const free = tier
      ? `, free tier ${amount(unit, tier.used)}/${amount(unit, tier.usd ?? tier.requests ?? 0)} per ${tier.period}`
      : "";
    lines.push(
      `  ${p.provider}: ${p.requests.today} today, ${p.requests.month} this month, ${p.requests.lifetime} overall; $${p.usd.month.toFixed(4)} this month${free}`,
    );
  }
  return lines.join("\n");
}
