import { Badge, type BadgeTone } from "@/components/ui/badge";
import type { ProviderState } from "@/lib/services/health/health-status";

const STATE = {
  healthy: { tone: "success", text: "healthy" },
  degraded: { tone: "warning", text: "degraded" },
  failing: { tone: "danger", text: "failing" },
  no_data: { tone: "outline", text: "no data" },
  probing: { tone: "warning", text: "probing" },
  paused: { tone: "danger", text: "paused" },
} as const satisfies Record<ProviderState, { tone: BadgeTone; text: string }>;

/**
 * A provider's status in words: healthy, degraded or failing by the success rate of its recent calls,
 * no data without calls, paused after repeated failures or probing again.
 */
export function ProviderStatusBadge({ state }: { state: ProviderState }) {
  const { tone, text } = STATE[state];
  return <Badge tone={tone}>{text}</Badge>;
}
