import { Badge } from "@/components/ui/badge";

/** Which providers returned a result, and at which rank each listed it. */
export function SourceBadges({ sources }: { sources: ReadonlyArray<{ provider: string; rank: number }> }) {
  return (
    <ul className="flex flex-wrap gap-1" aria-label="Found by">
      {sources.map((s) => (
        <li key={s.provider}>
          <Badge tone="primary" data-testid="provider-badge">
            {s.provider} <span className="opacity-70">#{s.rank}</span>
          </Badge>
        </li>
      ))}
    </ul>
  );
}
