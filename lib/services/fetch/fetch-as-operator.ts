import type { z } from "zod";
import { FetchFailed } from "../../engine/fetch/errors";
import { fetchInputSchema } from "../../engine/fetch/input";
import { type FetchResult, runFetch } from "../../engine/fetch/run-fetch";
import type { FetchProviderEntry } from "../../engine/fetch/types";
import { parseAllowlist, SsrfBlocked } from "../../http/ssrf";
import { fetchProviders } from "../../providers/fetch";
import { ServiceError } from "../errors";
import { operatorProviderEntries } from "../providers/operator-providers";
import { selectProviders } from "../providers/selection";
import { parseInput } from "../validate";

type Env = Readonly<Record<string, string | undefined>>;

const KNOWN: ReadonlySet<string> = new Set(fetchProviders.map((p) => p.id));

/**
 * The operator's fetch steps: the direct fetcher and keyless routes always, Jina Reader and GitHub
 * with or without their key, keyed providers whose key is set; `<PROVIDER>_BASE_URL` overrides.
 */
export function operatorFetchEntries(env: Env): FetchProviderEntry[] {
  return withProviderSettings(operatorProviderEntries(fetchProviders, env), env);
}

/** Provider settings from the operator's environment (e.g. BRIGHTDATA_ZONE), whoever's key is used. */
export function withProviderSettings(entries: readonly FetchProviderEntry[], env: Env): FetchProviderEntry[] {
  return entries.map((entry) => {
    const settings: Record<string, string> = {};
    for (const [name, variable] of Object.entries(entry.provider.settingsEnv ?? {})) {
      const setting = env[variable]?.trim();
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
 * A fetch with the operator's providers only (keyless ones and keys from the environment), no tenant,
 * budget or cache: what `npm run smx -- fetch URL` runs.
 */
export async function fetchAsOperator({
  ctx,
  input,
}: {
  ctx: { env: Env; signal?: AbortSignal };
  input: z.input<typeof fetchInputSchema>;
}): Promise<FetchResult> {
  const parsed = parseInput(fetchInputSchema, input);
  const entries = operatorFetchEntries(ctx.env);
  selectProviders(parsed.providers, KNOWN, entries, "fetch");
  try {
    return await runFetch({
      input: parsed,
      providers: entries,
      signal: ctx.signal,
      ssrf: { allowlist: fetchAllowlistFromEnv(ctx.env) },
    });
  } catch (error) {
    if (error instanceof SsrfBlocked) throw new ServiceError("invalid_input", error.message);
    if (error instanceof FetchFailed) {
      if (error.providersAttempted.length === 0)
        throw new ServiceError("no_provider_configured", error.message);
      throw new ServiceError("all_providers_failed", error.message, error.providersFailed);
    }
    throw error;
  }
}
