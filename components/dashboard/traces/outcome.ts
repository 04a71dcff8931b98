import type { BadgeTone } from "@/components/ui/badge";

/** How each span outcome looks: the bar colour in waterfalls and the badge tone in lists. */
const OUTCOME: Record<string, { bar: string; tone: BadgeTone; text: string }> = {
  ok: { bar: "bg-success", tone: "success", text: "ok" },
  empty: { bar: "bg-muted-foreground/60", tone: "neutral", text: "no results" },
  error: { bar: "bg-destructive", tone: "danger", text: "error" },
  timeout: { bar: "bg-warning", tone: "warning", text: "timeout" },
  skipped_budget: { bar: "bg-chart-3", tone: "warning", text: "skipped: budget" },
  skipped_breaker: { bar: "bg-chart-5", tone: "warning", text: "skipped: breaker" },
  skipped_rate_limit: { bar: "bg-chart-2", tone: "warning", text: "skipped: rate limit" },
  skipped_quota: { bar: "bg-chart-2", tone: "warning", text: "skipped: quota" },
  cache_hit: { bar: "bg-chart-4", tone: "primary", text: "cache hit" },
};

export const outcomeOf = (outcome: string) =>
  OUTCOME[outcome] ?? { bar: "bg-muted-foreground", tone: "neutral", text: outcome };

/** Trace statuses as badges. */
export const STATUS_TONE: Record<string, BadgeTone> = { ok: "success", partial: "warning", error: "danger" };
