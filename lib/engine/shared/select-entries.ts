/**
 * Which of the caller's resolved providers a tool call uses: the first entry per id, narrowed to the
 * ids the input asks for. Requested ids without an entry come back as `not_configured` failures, so
 * the response says why a provider the caller named did not answer.
 */
import type { ProviderFailure, ProviderRegistration, ResolvedProvider } from "./types";

export function selectEntries<E extends ResolvedProvider<ProviderRegistration>>(
  providers: readonly E[],
  wanted?: readonly string[],
): { entries: E[]; missing: ProviderFailure[] } {
  const byId = new Map<string, E>();
  for (const entry of providers) if (!byId.has(entry.provider.id)) byId.set(entry.provider.id, entry);
  if (wanted === undefined) return { entries: [...byId.values()], missing: [] };
  const ids = [...new Set(wanted)];
  return {
    entries: ids.flatMap((id) => byId.get(id) ?? []),
    missing: ids
      .filter((id) => !byId.has(id))
      .map((id) => ({
        provider: id,
        reason: "not_configured",
        message: `${id} is not configured`,
        duration_ms: 0,
      })),
  };
}
