import type { ListedPrice, ProviderRegistration } from "@/lib/engine/shared/types";
import { answerProviders } from "@/lib/providers/answer";
import { extractProviders } from "@/lib/providers/extract";
import { fetchProviders } from "@/lib/providers/fetch";
import { imageProviders } from "@/lib/providers/images";
import { paperProviders } from "@/lib/providers/papers";
import { searchProviders } from "@/lib/providers/search";

export type ProviderKind = "search" | "fetch" | "answer" | "papers" | "extract" | "images";

export interface CatalogEntry {
  id: string;
  displayName: string;
  /** Env variables of the operator's key; empty for keyless providers. */
  keyEnv: readonly string[];
  /** True when a key only raises limits. */
  keyOptional: boolean;
  /** Configured by each workspace alone: its key with a base URL and settings (the workspace model). */
  configuredByWorkspace: boolean;
  kinds: readonly ProviderKind[];
  /**
   * The listed price of its first registration (search, then fetch, answer, papers, extract): what a key test
   * costs, with the account's free tier (priceWithOverrides in ./prices.ts applies the operator's override).
   */
  price: ListedPrice;
}

/** Every provider registration, by the kind of tool it serves. */
export const PROVIDER_REGISTRIES: ReadonlyArray<[ProviderKind, readonly ProviderRegistration[]]> = [
  ["search", searchProviders],
  ["fetch", fetchProviders],
  ["answer", answerProviders],
  ["papers", paperProviders],
  ["extract", extractProviders],
  ["images", imageProviders],
];

let cached: ReadonlyMap<string, CatalogEntry> | undefined;

/**
 * Every provider the product knows, across tools, by id. A tenant key is stored per provider id and
 * serves every tool of that provider (a Tavily key is used for search, extract and answer alike).
 */
export function providerCatalog(): ReadonlyMap<string, CatalogEntry> {
  if (cached) return cached;
  const catalog = new Map<string, CatalogEntry>();
  for (const [kind, registry] of PROVIDER_REGISTRIES) {
    for (const provider of registry) {
      const known = catalog.get(provider.id);
      catalog.set(provider.id, {
        id: provider.id,
        displayName: known?.displayName ?? provider.displayName,
        keyEnv: known?.keyEnv.length ? known.keyEnv : provider.keyEnv,
        keyOptional: (known?.keyOptional ?? true) && provider.keyOptional === true,
        configuredByWorkspace: known?.configuredByWorkspace ?? provider.configuredByWorkspace === true,
        kinds: [...(known?.kinds ?? []), kind],
        price: known?.price ?? provider.price,
      });
    }
  }
  cached = catalog;
  return catalog;
}

/** Whether a workspace may store a key for the provider: a keyed one, or one it configures itself. */
export const takesKey = (provider: Pick<CatalogEntry, "keyEnv" | "configuredByWorkspace">) =>
  provider.keyEnv.length > 0 || provider.configuredByWorkspace;

export function keyedProvider(id: string): CatalogEntry | undefined {
  const entry = providerCatalog().get(id);
  return entry && takesKey(entry) ? entry : undefined;
}

/** Whether a call to `provider` needs a key (keyless and key-optional providers do not). */
export const needsKey = (provider: ProviderRegistration) =>
  provider.configuredByWorkspace === true || (provider.keyEnv.length > 0 && provider.keyOptional !== true);
