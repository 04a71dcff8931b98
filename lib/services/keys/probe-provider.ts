/**
 * One cheap call to a provider with a given key, through the engine of whichever tool the provider
 * serves (search: a one-result query; fetch: example.com; answer: a one-line question; papers: a
 * one-result query; the workspace model: the list of its models, which must name the stored one). Returns
 * the provider's failure, or undefined when it answered.
 */

import { runAnswer } from "@/lib/engine/answer/run-answer";
import type { ModelExtractor, ModelList } from "@/lib/engine/extract/types";
import { FetchFailed } from "@/lib/engine/fetch/errors";
import { runFetch } from "@/lib/engine/fetch/run-fetch";
import { runPaperSearch } from "@/lib/engine/papers/run-paper-search";
import { runSearch } from "@/lib/engine/search/run-search";
import { callIsolated } from "@/lib/engine/shared/isolated-call";
import type { AdmitHook } from "@/lib/engine/shared/types";
import { EMPTY_ALLOWLIST } from "@/lib/http/ssrf";
import type { Env } from "@/lib/pipeline/capabilities";
import { providerBaseUrl, withOperatorModel } from "@/lib/pipeline/providers/operator-providers";
import { endpointGuard, type StoredEndpoint } from "@/lib/pipeline/providers/workspace-model";
import { answerProviders } from "@/lib/providers/answer";
import { extractProviders } from "@/lib/providers/extract";
import { fetchProviders } from "@/lib/providers/fetch";
import { paperProviders } from "@/lib/providers/papers";
import { searchProviders } from "@/lib/providers/search";

const PROBE_TIMEOUT_MS = 15_000;

export interface ProbeFailure {
  reason: string;
  message?: string;
}

export interface ProbedKey {
  id: string;
  apiKey: string;
  /** What was stored with the key of a provider the workspace configures itself. */
  endpoint?: StoredEndpoint;
  env: Env;
}

export async function probeProvider(
  { id, apiKey, endpoint, env }: ProbedKey,
  admit: AdmitHook,
): Promise<ProbeFailure | undefined | "unsupported"> {
  const workspaceModel = extractProviders.find(
    (p): p is ModelExtractor => p.id === id && p.reads === "text" && p.configuredByWorkspace === true,
  );
  if (workspaceModel)
    return endpoint ? probeModel(workspaceModel, apiKey, endpoint, env, admit) : "unsupported";
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

/** The workspace model's check: its models listed through the guard of its calls, the stored one among them. */
async function probeModel(
  provider: ModelExtractor,
  apiKey: string,
  endpoint: StoredEndpoint,
  env: Env,
  admit: AdmitHook,
): Promise<ProbeFailure | undefined> {
  const guard = endpointGuard(env);
  const outcome = await callIsolated(
    {
      entry: { provider, apiKey, baseUrl: endpoint.baseUrl, timeoutMs: PROBE_TIMEOUT_MS },
      invoke: (signal) => provider.models({ apiKey, baseUrl: endpoint.baseUrl, signal, guard }),
      isResponse: (value): value is ModelList =>
        typeof value === "object" && value !== null && "ids" in value && Array.isArray(value.ids),
      count: (response) => response.ids.length,
    },
    { kind: "llm", admit, deadline: AbortSignal.timeout(PROBE_TIMEOUT_MS), origin: performance.now() },
  );
  if (!outcome.ok) return outcome.failure;
  if (outcome.response.ids.includes(endpoint.model)) return undefined;
  return {
    reason: "unknown_model",
    message: `${new URL(endpoint.baseUrl).host} does not list the model '${endpoint.model}'`,
  };
}
