import type { z } from "zod";
import { FetchFailed } from "../../engine/fetch/errors";
import { fetchInputSchemaFor } from "../../engine/fetch/input";
import { type FetchResult, runFetch } from "../../engine/fetch/run-fetch";
import type { FetchProviderEntry } from "../../engine/fetch/types";
import { SsrfBlocked } from "../../http/ssrf";
import { fetchProviders } from "../../providers/fetch";
import type { Env } from "../context";
import { ServiceError } from "../errors";
import { type OperatorContext, runOperatorCall } from "../operator-call";
import {
  fetchAllowlistFromEnv,
  operatorProviderEntries,
  withProviderSettings,
} from "../providers/operator-providers";
import { parseInput } from "../validate";

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
}: {
  ctx: OperatorContext;
  input: z.input<typeof fetchInputSchema>;
}): Promise<FetchResult> {
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
