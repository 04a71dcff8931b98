/**
 * Provider settings from the operator's environment, for the operator's verbs and tenants' alike: base
 * URLs, the operator's keys, and each tool's own settings (fetch providers' settings and allowlist, the
 * operator model's name, OpenAlex's contact address).
 */
import type { AnswerEntry } from "@/lib/engine/answer/types";
import type { ExtractEntry, ModelPrice } from "@/lib/engine/extract/types";
import type { FetchProviderEntry } from "@/lib/engine/fetch/types";
import type { PaperEntry } from "@/lib/engine/papers/types";
import type { ProviderRegistration, ResolvedProvider } from "@/lib/engine/shared/types";
import { parseAllowlist } from "@/lib/http/ssrf";
import type { Env } from "@/lib/pipeline/capabilities";
import { ServiceError } from "@/lib/pipeline/errors";
import { OPERATOR_LLM_MODEL_ENV } from "@/lib/providers/answer/openai-compatible";
import { needsKey, PROVIDER_REGISTRIES, type ProviderKind } from "./catalog";
import { priceWithOverrides } from "./prices";

/** Contact address for OpenAlex's polite pool. */
const MAILTO_ENV = "OPENALEX_MAILTO";

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
    return [{ provider, baseUrl, apiKey, effectivePrice: priceWithOverrides(provider.price, env) }];
  });
}

export function operatorProviderIds(
  providers: readonly ProviderRegistration[],
  env: Env = process.env,
): string[] {
  return operatorProviderEntries(providers, env).map((entry) => entry.provider.id);
}

/**
 * Per kind, the ids of the providers the operator's environment can call (the local bridge lists them under
 * the tools of each kind: operatorProvidersByTool in lib/tools/provider-kinds.ts).
 */
export function operatorProvidersByKind(env: Env): Record<ProviderKind, string[]> {
  const byKind: Record<ProviderKind, string[]> = {
    search: [],
    fetch: [],
    answer: [],
    papers: [],
    extract: [],
    images: [],
  };
  for (const [kind, registry] of PROVIDER_REGISTRIES) byKind[kind] = operatorProviderIds(registry, env);
  return byKind;
}

/** Provider settings from the operator's environment (e.g. BRIGHTDATA_ZONE), whoever's key is used. */
export function withProviderSettings(entries: readonly FetchProviderEntry[], env: Env): FetchProviderEntry[] {
  return entries.map((entry) => {
    const settings: Record<string, string> = {};
    for (const [name, variable] of Object.entries(entry.provider.settingsEnv ?? {})) {
      const setting = value(env, variable);
      if (setting) settings[name] = setting;
    }
    return { ...entry, settings };
  });
}

/** SEARCHMUX_FETCH_ALLOWLIST: comma-separated host names or CIDRs; empty (nothing exempt) by default. */
export function fetchAllowlistFromEnv(env: Env) {
  return parseAllowlist((env.SEARCHMUX_FETCH_ALLOWLIST ?? "").split(","));
}

/**
 * Entries ready to call: the operator's `llm` gets SEARCHMUX_LLM_MODEL and its price per token, or is left
 * out without a model.
 */
export function withOperatorModel<E extends AnswerEntry | ExtractEntry>(
  entries: readonly E[],
  env: Env,
): Array<E & { model?: string }> {
  const model = value(env, OPERATOR_LLM_MODEL_ENV);
  return entries.flatMap((entry) => {
    if (entry.provider.defaultModel !== "") return [entry];
    // The operator model is the only provider without a default model: offered only once it is named, and
    // priced by its tokens at SEARCHMUX_LLM_PRICE_PER_MTOK when the operator names a price.
    if (!model) return [];
    const tokens = operatorModelPrice(env);
    if (tokens === undefined) return [{ ...entry, model }];
    const price = entry.effectivePrice ?? entry.provider.price;
    const perMillion = [tokens.inputPerMillion, tokens.outputPerMillion] as const;
    return [{ ...entry, model, effectivePrice: { ...price, usd_per_million_tokens: perMillion } }];
  });
}

/** OpenAlex gets OPENALEX_MAILTO (its polite pool) when the operator set one. */
export function withPoliteMailto(entries: readonly PaperEntry[], env: Env): PaperEntry[] {
  const mailto = value(env, MAILTO_ENV);
  return entries.map((entry) => (entry.provider.id === "openalex" && mailto ? { ...entry, mailto } : entry));
}

/** SEARCHMUX_LLM_PRICE_PER_MTOK: the operator model's USD per million tokens, "input,output" (e.g. "0.15,0.6"). */
const OPERATOR_LLM_PRICE_ENV = "SEARCHMUX_LLM_PRICE_PER_MTOK";

/**
 * The operator model's price for calls priced by tokens (extract), or undefined when none is named (a model
 * the operator runs itself costs nothing a call). A malformed value fails those calls, naming the variable:
 * charging nothing for a price the operator meant would let budgets overspend.
 */
export function operatorModelPrice(env: Env): ModelPrice | undefined {
  const named = value(env, OPERATOR_LLM_PRICE_ENV);
  if (!named) return undefined;
  const parts = named.split(",").map((part) => Number(part.trim()));
  const [input, output] = parts;
  if (parts.length !== 2 || input === undefined || output === undefined || !(input >= 0 && output >= 0))
    throw new ServiceError(
      "no_provider_configured",
      `${OPERATOR_LLM_PRICE_ENV} must be two non-negative numbers, "input,output" USD per million tokens`,
    );
  return { inputPerMillion: input, outputPerMillion: output };
}
