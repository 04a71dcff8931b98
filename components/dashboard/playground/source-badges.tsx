import { Badge } from "@/components/ui/badge";
import { bestRankText, groupByProvider, type Listing } from "@/lib/dashboard/provenance";
import { plural } from "@/lib/wording";

/**
 * Which providers found a result: a badge per provider (its best rank on hover and for screen readers),
 * then a disclosure listing every provider, rank and search behind them.
 */
export function SourceBadges({ sources }: { sources: readonly Listing[] }) {
  const groups = groupByProvider(sources);
  const withQueries = sources.some((listing) => listing.query !== undefined);
  return (
    <div className="flex flex-wrap items-start gap-x-2 gap-y-1">
      <ul className="flex flex-wrap gap-1" aria-label="Found by">
        {groups.map((group) => (
          <li key={group.provider}>
            <Badge tone="primary" title={bestRankText(group)} data-testid="provider-badge">
              {group.provider}
              <span className="sr-only">, best rank #{group.bestRank}</span>
            </Badge>
          </li>
        ))}
      </ul>
      <details className="text-xs" data-testid="provenance">
        <summary className="cursor-pointer text-muted-foreground">
          {plural(sources.length, "listing")}
        </summary>
        <table className="mt-1 text-left">
          <thead className="text-muted-foreground">
            <tr>
              <th className="pr-3 font-normal">Provider</th>
              <th className="pr-3 font-normal">Rank</th>
              {withQueries ? <th className="font-normal">Search</th> : null}
            </tr>
          </thead>
          <tbody>
            {groups.flatMap((group) =>
              group.listings.map((listing) => (
                <tr key={`${listing.provider} ${listing.rank} ${listing.query ?? ""}`} data-testid="listing">
                  <td className="pr-3">{listing.provider}</td>
                  <td className="pr-3 tabular-nums">#{listing.rank}</td>
                  {withQueries ? <td>{listing.query}</td> : null}
                </tr>
              )),
            )}
          </tbody>
        </table>
      </details>
    </div>
  );
}
