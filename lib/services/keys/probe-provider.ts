/**
 * One cheap call to a provider with a given key, through the engine of whichever tool the provider
 * serves (search: a one-result query; fetch: example.com; answer: a one-line question; papers: a
 * one-result query). Returns the provider's failure, or undefined when it answered.
 */

import { runAnswer } from "@/lib/engine/answer/run-answer";
import { FetchFailed } from "@/lib/engine/fetch/errors";
import { runFetch } from "@/lib/engine/fetch/run-fetch";
import { runPaperSearch } from "@/lib/engine/papers/run-paper-search";
import { runSearch } from "@/lib/engine/search/run-search";
import type { AdmitHook } from "@/lib/engine/shared/types";
import { EMPTY_ALLOWLIST } from "@/lib/http/ssrf";
import type { Env } from "@/lib/pipeline/capabilities";
import { providerBaseUrl, withOperatorModel } from "@/lib/pipeline/providers/operator-providers";
import { answerProviders } from "@/lib/providers/answer";
import { fetchProviders } from "@/lib/providers/fetch";
import { paperProviders } from "@/lib/providers/papers";
import { searchProviders } from "@/lib/providers/search";

const PROBE_TIMEOUT_MS = 15_000;

export interface ProbeFailure {
  reason: string;
  message?: string;
}

export async function probeProvider(
  id: string,
  apiKey: string,
  env: Env,
  admit: AdmitHook,
): Promise<ProbeFailure | undefined | "unsupported"> {
  const search = searchProviders.find((p) => p.id === id);
  const fetcher = fetchProviders.find((p) => p.id === id);
  const answerer = answerProviders.find((p) => p.id === id);
  const papers = paperProviders.find((p) => p.id === id);
  const provider = search ?? fetcher ?? answerer ?? papers;
  const baseUrl = provider && providerBaseUrl(provider, env);
  if (!baseUrl) return "unsupported";

  if (search) {
    const result = await runSearch({
      input: { query: "searchmux key check", max_results: 1, timeout_ms: PROBE_TIMEOUT_MS },
      providers: [{ provider: search, apiKey, baseUrl }],
      admit,
    });
    return result.providers_failed[0];
  }
  if (fetcher) {
    try {
      await runFetch({
        input: { url: "https://example.com/", providers: [id], timeout_ms: PROBE_TIMEOUT_MS },
        providers: [{ provider: fetcher, apiKey, baseUrl }],
        ssrf: { allowlist: EMPTY_ALLOWLIST },
        admit,
      });
      return undefined;
    } catch (error) {
      if (error instanceof FetchFailed) return error.providersFailed.find((f) => f.provider === id);
      throw error;
    }
  }
  if (answerer) {
    const [entry] = withOperatorModel([{ provider: answerer, apiKey, baseUrl }], env);
    if (!entry) return "unsupported";
    const result = await runAnswer({
      input: { query: "Reply with the word OK.", timeout_ms: PROBE_TIMEOUT_MS },
      providers: [entry],
      admit,
    });
    return result.providers_failed[0];
  }
  if (papers) {
    const result = await runPaperSearch({
      input: { query: "attention", max_results: 1, timeout_ms: PROBE_TIMEOUT_MS },
      providers: [{ provider: papers, apiKey, baseUrl }],
      admit,
    });
    return result.providers_failed[0];
  }
  return "unsupported";
}
