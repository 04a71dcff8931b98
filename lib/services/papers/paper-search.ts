import type { z } from "zod";
import { paperSearchInputSchema } from "@/lib/engine/papers/input";
import { runPaperSearch } from "@/lib/engine/papers/run-paper-search";
import { assertScope, type TenantContext } from "@/lib/pipeline/context";
import type { OnProgress } from "@/lib/pipeline/provider-attempts";
import { withPoliteMailto } from "@/lib/pipeline/providers/operator-providers";
import { runCall } from "@/lib/pipeline/run-call";
import { noCacheField, parseInput } from "@/lib/pipeline/validate";
import { paperProviders } from "@/lib/providers/papers";

export const paperSearchToolInput = paperSearchInputSchema.extend({ no_cache: noCacheField }).strict();

/** paper_search for a tenant: arXiv, PubMed, Semantic Scholar and OpenAlex merged, with budgets and cache. */
export async function paperSearch({
  ctx,
  input,
  onProgress,
  signal,
}: {
  ctx: TenantContext;
  input: z.input<typeof paperSearchToolInput>;
  /** Told of each provider attempt as it finishes. */
  onProgress?: OnProgress;
  /** The caller went away (client disconnect, MCP cancellation): provider calls stop. */
  signal?: AbortSignal;
}) {
  assertScope(ctx, "papers");
  const { no_cache, providers, ...rest } = parseInput(paperSearchToolInput, input);
  return runCall(ctx, {
    onProgress,
    tool: "paper_search",
    spanKind: "papers",
    registry: paperProviders,
    wanted: providers,
    noCache: no_cache,
    cacheInput: rest,
    run: (entries, admit) =>
      runPaperSearch({
        input: { ...rest, providers },
        providers: withPoliteMailto(entries, ctx.env),
        admit,
        signal,
      }),
    succeeded: (result) => result.providers_succeeded.length,
    summarize: (result) => ({
      results: result.results.length,
      top_urls: result.results.slice(0, 5).map((p) => p.url),
    }),
  });
}
