import { type CatalogEntry, type ProviderKind, takesKey } from "@/lib/pipeline/providers/catalog";
import type { listKeys } from "@/lib/services/keys/list-keys";
import type { providerStatus } from "@/lib/services/providers/provider-status";
import { formatUsdPrice } from "./format";
import { PROVIDER_LINKS, type ProviderLink } from "./provider-links";

type StatusEntry = Awaited<ReturnType<typeof providerStatus>>["providers"][number];
type StoredKey = Awaited<ReturnType<typeof listKeys>>[number];

/** Whose key a call would use, in the words the keys page shows; `no_key`: it would need one. */
export type KeyState = "your_key" | "operator_key" | "keyless" | "no_key" | "not_configured";

export interface ProviderRow {
  id: string;
  name: string;
  kinds: readonly ProviderKind[];
  /** Whether a workspace may store a key for it (keyed, or keyless where a key raises limits). */
  takesKey: boolean;
  /** The workspace model: its key comes with a base URL, a model and a price. */
  configuredByWorkspace: boolean;
  state: KeyState;
  /** The stored key, when the workspace has one and the viewer may see it. */
  key: Pick<StoredKey, "last4" | "status" | "checkedAt" | "quotaUntil" | "endpoint"> | null;
  freeTier: StatusEntry["free_tier"];
  link: ProviderLink | null;
}

const keyed = (entry: CatalogEntry | undefined) => entry !== undefined && takesKey(entry);

function keyState(entry: StatusEntry): KeyState {
  if (entry.unavailable_reason === "no_base_url") return "not_configured";
  return (
    { tenant: "your_key", operator: "operator_key", not_needed: "keyless", missing: "no_key" } as const
  )[entry.key_source];
}

const ORDER: Record<KeyState, number> = {
  your_key: 0,
  operator_key: 1,
  keyless: 2,
  no_key: 3,
  not_configured: 4,
};

/** States in which a call can use the provider now. */
const USABLE: ReadonlySet<KeyState> = new Set(["your_key", "operator_key", "keyless"]);

/**
 * Every provider with its key state, stored key and sign-up link: the ones calls can use first (own keys,
 * the operator's, keyless), then those waiting for a key, then those the operator has not set up.
 */
export function providerRows(
  statuses: readonly StatusEntry[],
  catalog: ReadonlyMap<string, CatalogEntry>,
  keys: readonly StoredKey[] | null,
): ProviderRow[] {
  return statuses
    .map((entry) => ({
      id: entry.provider,
      name: entry.name,
      kinds: catalog.get(entry.provider)?.kinds ?? [],
      // A provider the operator has not configured (no base URL) cannot use a key either.
      takesKey: keyed(catalog.get(entry.provider)) && keyState(entry) !== "not_configured",
      configuredByWorkspace: catalog.get(entry.provider)?.configuredByWorkspace ?? false,
      state: keyState(entry),
      key: keys?.find((k) => k.provider === entry.provider) ?? null,
      freeTier: entry.free_tier,
      link: PROVIDER_LINKS[entry.provider] ?? null,
    }))
    .sort((a, b) => ORDER[a.state] - ORDER[b.state] || a.name.localeCompare(b.name));
}

/**
 * The kinds of provider none of which can be used now, each with the providers a key would enable: what
 * a workspace needs to add (every other provider without a key is optional).
 */
export function kindsWithoutProvider(
  rows: readonly ProviderRow[],
): Array<{ kind: ProviderKind; needsKeyOf: ProviderRow[] }> {
  const kinds = [...new Set(rows.flatMap((row) => row.kinds))];
  return kinds
    .filter((kind) => !rows.some((row) => row.kinds.includes(kind) && USABLE.has(row.state)))
    .map((kind) => ({
      kind,
      needsKeyOf: rows.filter((row) => row.kinds.includes(kind) && row.state === "no_key"),
    }));
}

/** The workspace model's row: "api.example.com · gpt-4.1-mini · $0.40 in, $1.60 out per million tokens". */
export function describeEndpoint(endpoint: NonNullable<StoredKey["endpoint"]>): string {
  const { input, output } = endpoint.price_per_mtok;
  return `${endpoint.host} · ${endpoint.model} · ${formatUsdPrice(input)} in, ${formatUsdPrice(output)} out per million tokens`;
}
