import { FetchFailed } from "@/lib/engine/fetch/errors";
import { fetchInputSchemaFor } from "@/lib/engine/fetch/input";
import { type FetchResult, runFetch } from "@/lib/engine/fetch/run-fetch";
import type { FetchProviderEntry } from "@/lib/engine/fetch/types";
import { SsrfBlocked } from "@/lib/http/ssrf";
import { fetchProviders } from "@/lib/providers/fetch";
import type { Env, VerbArgs } from "@/lib/services/context";
import { ServiceError } from "@/lib/services/errors";
import { type OperatorContext, runOperatorCall } from "@/lib/services/operator-call";
import {
  fetchAllowlistFromEnv,
  operatorProviderEntries,
  withProviderSettings,
} from "@/lib/services/providers/operator-providers";
import { parseInput } from "@/lib/services/validate";

const fetchInputSchema = fetchInputSchemaFor(fetchProviders);

/**
 * The operator's fetch steps: the direct fetcher and keyless routes always, Jina Reader and GitHub
 * with or without their key, keyed providers whose key is set; `<PROVIDER>_BASE_URL` overrides.
 */
export function operatorFetchEntries(env: Env): FetchProviderEntry[] {
  return withProviderSettings(operatorProviderEntries(fetchProviders, env), env);
}

/**
 * A fetch with the operator's providers only (keyless ones and keys from the environment), no tenant,
 * budget or cache: what `npm run smx -- fetch URL` runs.
 */
export async function fetchAsOperator({
  ctx,
  input,
}: VerbArgs<OperatorContext, typeof fetchInputSchema>): Promise<FetchResult> {
  const parsed = parseInput(fetchInputSchema, input);
  return runOperatorCall({
    tool: "fetch",
    registry: fetchProviders,
    available: operatorFetchEntries(ctx.env),
    wanted: parsed.providers,
    async run(entries) {
      try {
        return await runFetch({
          input: parsed,
          providers: entries,
          registry: fetchProviders,
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
    },
  });
}
