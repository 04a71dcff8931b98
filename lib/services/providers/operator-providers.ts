import type { ProviderRegistration, ResolvedProvider } from "../../engine/shared/types";
import type { Env } from "../context";
import { needsKey } from "./catalog";

const value = (env: Env, name: string) => env[name]?.trim() || undefined;

/** `<PROVIDER>_BASE_URL` (or SEARXNG_URL), else the registration's default; undefined when neither exists. */
export function providerBaseUrl(provider: ProviderRegistration, env: Env): string | undefined {
  return value(env, provider.baseUrlEnv) ?? provider.defaultBaseUrl ?? undefined;
}

/** The operator's key for a provider from the environment. */
export function operatorKey(keyEnv: readonly string[], env: Env): string | undefined {
  return keyEnv.map((name) => value(env, name)).find(Boolean);
}

/**
 * Providers usable without a tenant key, ready to call: keyless ones (with their base URL, when one
 * must be configured, as for SearXNG), those whose key is optional (PubMed, Semantic Scholar; with the
 * operator's key when set) and those whose operator key is in the environment. Any tool's providers.
 */
export function operatorProviderEntries<P extends ProviderRegistration>(
  providers: readonly P[],
  env: Env = process.env,
): ResolvedProvider<P>[] {
  return providers.flatMap((provider) => {
    const baseUrl = providerBaseUrl(provider, env);
    const apiKey = operatorKey(provider.keyEnv, env);
    if (!baseUrl || (needsKey(provider) && !apiKey)) return [];
    return [{ provider, baseUrl, apiKey }];
  });
}

export function operatorProviderIds(
  providers: readonly ProviderRegistration[],
  env: Env = process.env,
): string[] {
  return operatorProviderEntries(providers, env).map((entry) => entry.provider.id);
}
