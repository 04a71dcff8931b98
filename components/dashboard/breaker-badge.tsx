import { Badge } from "@/components/ui/badge";

const BREAKER = {
  closed: { tone: "success", text: "healthy" },
  half_open: { tone: "warning", text: "probing" },
  open: { tone: "danger", text: "paused" },
} as const;

/** A provider's circuit breaker in words: healthy, paused after repeated failures, or probing again. */
export function BreakerBadge({ state }: { state: keyof typeof BREAKER }) {
  const { tone, text } = BREAKER[state];
  return <Badge tone={tone}>{text}</Badge>;
}
