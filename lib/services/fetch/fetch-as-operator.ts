import { FetchFailed } from "@/lib/engine/fetch/errors";
import { DEFAULT_MAX_CHARS, MAX_CHARS_CAP } from "@/lib/engine/fetch/input";
import { runFetch } from "@/lib/engine/fetch/run-fetch";
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
import { fetchToolInput } from "./fetch-page";
import { type PagedFetch, pageOf } from "./page-window";

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
}: VerbArgs<OperatorContext, typeof fetchToolInput>): Promise<PagedFetch> {
  const { url, urls, offset, max_chars, no_cache: _, ...parsed } = parseInput(fetchToolInput, input);
  // Without a cache, each page is a fresh fetch; many URLs are the hosted verb's (fetch-batch.ts).
  if (url === undefined || urls !== undefined)
    throw new ServiceError(
      "invalid_input",
      "the local fetch reads one url per call; urls needs the hosted server",
    );
  const document = await runOperatorCall({
    tool: "fetch",
    registry: fetchProviders,
    available: operatorFetchEntries(ctx.env),
    wanted: parsed.providers,
    async run(entries) {
      try {
        return await runFetch({
          input: { ...parsed, url, max_chars: MAX_CHARS_CAP },
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
  return pageOf(document, { offset, maxChars: max_chars ?? DEFAULT_MAX_CHARS });
}
