import type { z } from "zod";
import { FetchFailed } from "@/lib/engine/fetch/errors";
import { fetchInputSchemaFor } from "@/lib/engine/fetch/input";
import { type FetchResult, runFetch } from "@/lib/engine/fetch/run-fetch";
import type { FetchFailure, FetchSpan } from "@/lib/engine/fetch/types";
import { SsrfBlocked } from "@/lib/http/ssrf";
import { fetchProviders } from "@/lib/providers/fetch";
import { assertScope, type TenantContext } from "@/lib/services/context";
import { ServiceError } from "@/lib/services/errors";
import type { OnProgress } from "@/lib/services/provider-attempts";
import { fetchAllowlistFromEnv, withProviderSettings } from "@/lib/services/providers/operator-providers";
import { runToolCall } from "@/lib/services/tool-call";
import { noCacheField, parseInput } from "@/lib/services/validate";

export const fetchToolInput = fetchInputSchemaFor(fetchProviders).extend({ no_cache: noCacheField }).strict();

/** A waterfall where no step produced a page, kept as a value so each billed step is still settled. */
interface NoPage {
  noPage: true;
  providers_failed: readonly FetchFailure[];
  spans: readonly FetchSpan[];
}

/**
 * fetch for a tenant: domain routes, the SSRF-safe direct fetcher (free), then its keyed fetch providers
 * cheapest first, each paid step admitted against the budgets; results cached per tenant.
 */
export async function fetchPage({
  ctx,
  input,
  onProgress,
  signal,
}: {
  ctx: TenantContext;
  input: z.input<typeof fetchToolInput>;
  /** Told of each provider attempt as it finishes. */
  onProgress?: OnProgress;
  /** The caller went away (client disconnect, MCP cancellation): provider calls stop. */
  signal?: AbortSignal;
}) {
  assertScope(ctx, "fetch");
  const { no_cache, ...parsed } = parseInput(fetchToolInput, input);
  const result = await runToolCall<(typeof fetchProviders)[number], FetchResult | NoPage>(ctx, {
    tool: "fetch",
    spanKind: "fetch",
    onProgress,
    registry: fetchProviders,
    // The waterfall applies `providers` / `skip_providers` itself; every available step is offered.
    cacheInput: parsed,
    noCache: no_cache,
    async run(entries, admit) {
      try {
        return await runFetch({
          input: parsed,
          providers: withProviderSettings(entries, ctx.env),
          registry: fetchProviders,
          admit,
          signal,
          ssrf: { allowlist: fetchAllowlistFromEnv(ctx.env) },
        });
      } catch (error) {
        if (error instanceof SsrfBlocked) throw new ServiceError("invalid_input", error.message);
        if (error instanceof FetchFailed)
          return { noPage: true, providers_failed: error.providersFailed, spans: error.spans };
        throw error;
      }
    },
    succeeded: (outcome) => ("noPage" in outcome ? 0 : 1),
    summarize: (outcome) =>
      "noPage" in outcome
        ? {}
        : { provider: outcome.provider, final_url: outcome.final_url, chars: outcome.content.length },
  });
  if ("noPage" in result) throw new Error("unreachable: runToolCall rejects calls where nothing succeeded");
  return result;
}
