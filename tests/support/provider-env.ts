/**
 * Providers as every test sees them, derived from the registries so a new provider is covered the day
 * it is registered: each registration's base-URL variable (`<PROVIDER>_BASE_URL`, as
 * lib/pipeline/providers/operator-providers.ts reads it) pointed at the fake provider server, and each
 * operator key (and the operator model) emptied, so nothing a test starts reaches a provider on the
 * internet, nor picks up the developer's own keys (a blank variable also hides .env.local from
 * `next start`). A provider configured only by its URL (SearXNG, the operator LLM) stays off, its
 * variable blank, as in a zero-configuration deployment. A test adds the keys and URLs it means to use.
 *
 * Each variable points at the wire that serves its provider (tests/fakes/*-wires.ts). Variables several
 * tools share go to one wire: search's for Tavily, Exa, Firecrawl, Kagi and Perplexity, papers' for
 * arXiv; a test calling another tool's wire overrides it (PERPLEXITY_BASE_URL for answers). The direct
 * fetcher has no base URL: tests/support/no-outside-network.ts keeps its fetches on loopback.
 */
import type { ProviderRegistration } from "@/lib/engine/shared/types";
import { answerProviders } from "@/lib/providers/answer";
import { OPERATOR_LLM_MODEL_ENV } from "@/lib/providers/answer/openai-compatible";
import { extractProviders } from "@/lib/providers/extract";
import { fetchProviders } from "@/lib/providers/fetch";
import { paperProviders } from "@/lib/providers/papers";
import { searchProviders } from "@/lib/providers/search";
import { ANSWER_PREFIX } from "@/tests/fakes/answer-wires";
import { fetchWireId } from "@/tests/fakes/fetch-wires";
import { PAPER_PREFIX, PUBMED_WIRE } from "@/tests/fakes/paper-wires";

type WirePrefix = (id: string) => string;

const prefixFrom =
  (table: Readonly<Record<string, string>>): WirePrefix =>
  (id) =>
    table[id] ?? id;

/** PubMed's two wires (esearch.fcgi, esummary.fcgi) sit at the server's root. */
const ROOT = "";

/**
 * Registries in ascending precedence: the last one to name a shared variable decides its wire. Extract's
 * share theirs with search (Firecrawl) and answer (the operator model); the workspace model has none (its
 * base URL is stored with its key).
 */
const REGISTRIES: ReadonlyArray<[readonly ProviderRegistration[], WirePrefix]> = [
  [extractProviders, (id) => id],
  [fetchProviders, fetchWireId],
  [answerProviders, prefixFrom(ANSWER_PREFIX)],
  [paperProviders, prefixFrom({ ...PAPER_PREFIX, pubmed: ROOT })],
  [searchProviders, (id) => id],
];

/** Every registered provider, across tools. */
export const registeredProviders = (): ProviderRegistration[] => REGISTRIES.flatMap(([registry]) => registry);

/** Each base-URL variable and the fake server's wire it points at; undefined leaves the provider off. */
function variableWires(): Map<string, string | undefined> {
  const wires = new Map<string, string | undefined>();
  for (const [registry, prefix] of REGISTRIES) {
    for (const provider of registry) {
      if (!provider.baseUrlEnv) continue;
      if (provider.defaultBaseUrl) wires.set(provider.baseUrlEnv, prefix(provider.id));
      else if (!wires.has(provider.baseUrlEnv)) wires.set(provider.baseUrlEnv, undefined);
    }
  }
  return wires;
}

/**
 * Base-URL variables of every registered provider at the fake server `origin` (`fake.url`, or the e2e
 * fake's fixed origin) or blank, and every operator key variable and the operator model blank.
 */
export function fakeProviderEnv(origin: string): Record<string, string> {
  const env: Record<string, string> = { [OPERATOR_LLM_MODEL_ENV]: "" };
  for (const provider of registeredProviders()) for (const name of provider.keyEnv) env[name] = "";
  for (const [name, wire] of variableWires()) {
    env[name] = wire === undefined ? "" : wire === ROOT ? origin : `${origin}/${wire}`;
  }
  return env;
}

/** The wires fakeProviderEnv points at (fake.requests(wire)): everywhere a provider call of a test lands. */
export function fakeProviderWires(): string[] {
  const wires = [...variableWires().values()].filter((wire) => wire !== undefined);
  return [...new Set(wires.flatMap((wire) => (wire === ROOT ? Object.values(PUBMED_WIRE) : [wire])))];
}
