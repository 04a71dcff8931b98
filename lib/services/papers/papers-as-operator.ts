import type { z } from "zod";
import { paperSearchInputSchema } from "../../engine/papers/input";
import { type PaperSearchResult, runPaperSearch } from "../../engine/papers/run-paper-search";
import type { PaperEntry } from "../../engine/papers/types";
import { paperProviders } from "../../providers/papers";
import { operatorProviderEntries } from "../providers/operator-providers";
import { selectProviders, throwIfNothingSucceeded } from "../providers/selection";
import { parseInput } from "../validate";

type Env = Readonly<Record<string, string | undefined>>;

/** Contact address for OpenAlex's polite pool. */
const MAILTO_ENV = "OPENALEX_MAILTO";
const KNOWN: ReadonlySet<string> = new Set(paperProviders.map((p) => p.id));

/**
 * A paper search with the operator's providers: all four work without keys; NCBI_API_KEY,
 * SEMANTIC_SCHOLAR_API_KEY and OPENALEX_API_KEY raise rate limits, OPENALEX_MAILTO joins OpenAlex's
 * polite pool, `<PROVIDER>_BASE_URL` overrides base URLs. What `npm run smx -- papers` runs.
 */
export async function papersAsOperator({
  ctx,
  input,
}: {
  ctx: { env: Env; signal?: AbortSignal };
  input: z.input<typeof paperSearchInputSchema>;
}): Promise<PaperSearchResult> {
  const parsed = parseInput(paperSearchInputSchema, input);
  const entries = selectProviders(parsed.providers, KNOWN, operatorPaperEntries(ctx.env), "paper");
  const result = await runPaperSearch({ input: parsed, providers: entries, signal: ctx.signal });
  throwIfNothingSucceeded({
    succeeded: result.providers_succeeded.length,
    providers_failed: result.providers_failed,
  });
  return result;
}

function operatorPaperEntries(env: Env): PaperEntry[] {
  return withPoliteMailto(operatorProviderEntries(paperProviders, env), env);
}

/** OpenAlex gets OPENALEX_MAILTO (its polite pool) when the operator set one. */
export function withPoliteMailto(entries: readonly PaperEntry[], env: Env): PaperEntry[] {
  const mailto = env[MAILTO_ENV]?.trim() || undefined;
  return entries.map((entry) => (entry.provider.id === "openalex" && mailto ? { ...entry, mailto } : entry));
}
