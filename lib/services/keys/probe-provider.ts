/**
 * One cheap call to a provider with a given key, through the engine of whichever tool the provider
 * serves (search: a one-result query; fetch: example.com, or a domain route's own probe page; answer: a
 * one-line question; papers: a one-result query; the workspace model: the list of its models, which must
 * name the stored one). The call goes through the adapter, so an answer of another shape than its schema
 * is an `invalid_response`. Returns the provider's failure, or undefined when it answered.
 */

import { runAnswer } from "@/lib/engine/answer/run-answer";
import type { ModelExtractor, ModelList } from "@/lib/engine/extract/types";
import { FetchFailed } from "@/lib/engine/fetch/errors";
import { runFetch } from "@/lib/engine/fetch/run-fetch";
import { runPaperSearch } from "@/lib/engine/papers/run-paper-search";
import { runSearch } from "@/lib/engine/search/run-search";
import { callIsolated } from "@/lib/engine/shared/isolated-call";
import type { AdmitHook, ProviderRegistration } from "@/lib/engine/shared/types";
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
/** A small page that has been there for decades: what a fetch provider without a route of its own fetches. */
const PROBE_PAGE = "https://example.com/";

export interface ProbeFailure {
  reason: string;
  message?: string;
}

/** The kinds of call a probe makes; every provider of another tool (images, similar) also serves one of them. */
export type ProbeKind = "search" | "fetch" | "answer" | "papers";

/** The registries a probe calls, in the order a key test tries a provider's kinds. */
const PROBE_REGISTRIES: ReadonlyArray<[ProbeKind, readonly ProviderRegistration[]]> = [
  ["search", searchProviders],
  ["fetch", fetchProviders],
  ["answer", answerProviders],
  ["papers", paperProviders],
];

export interface ProbeTarget {
  kind: ProbeKind;
  provider: ProviderRegistration;
}

/** Each kind of call `id` can be probed with, with its registration, in the order a key test tries them. */
export function probeTargets(id: string): ProbeTarget[] {
  return PROBE_REGISTRIES.flatMap(([kind, registry]) =>
    registry.filter((provider) => provider.id === id).map((provider) => ({ kind, provider })),
  );
}

export interface ProbedKey {
  id: string;
  /** Undefined for a provider that works without one (keyless, or a key that only raises limits). */
  apiKey?: string;
  /** What was stored with the key of a provider the workspace configures itself. */
  endpoint?: StoredEndpoint;
  env: Env;
  /** Which of the provider's kinds to call; by default the first it has (search, fetch, answer, papers). */
  kind?: ProbeKind;
}

export async function probeProvider(
  { id, apiKey, endpoint, env, kind }: ProbedKey,
  admit: AdmitHook,
): Promise<ProbeFailure | undefined | "unsupported"> {
  const workspaceModel = extractProviders.find(
    (p): p is ModelExtractor => p.id === id && p.reads === "text" && p.configuredByWorkspace === true,
  );
  if (workspaceModel)
    return apiKey && endpoint ? probeModel(workspaceModel, apiKey, endpoint, env, admit) : "unsupported";
  const probed = kind ?? probeTargets(id)[0]?.kind;
  const search = probed === "search" ? searchProviders.find((p) => p.id === id) : undefined;
  const fetcher = probed === "fetch" ? fetchProviders.find((p) => p.id === id) : undefined;
  const answerer = probed === "answer" ? answerProviders.find((p) => p.id === id) : undefined;
  const papers = probed === "papers" ? paperProviders.find((p) => p.id === id) : undefined;
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
        input: { url: fetcher.probeUrl ?? PROBE_PAGE, providers: [id], timeout_ms: PROBE_TIMEOUT_MS },
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
