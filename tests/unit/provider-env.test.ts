import { describe, expect, it } from "vitest";
import { providerCatalog } from "@/lib/pipeline/providers/catalog";
import { operatorProviderEntries, providerBaseUrl } from "@/lib/pipeline/providers/operator-providers";
import { OPERATOR_LLM_MODEL_ENV } from "@/lib/providers/answer/openai-compatible";
import { ANSWER_WIRES } from "@/tests/fakes/answer-wires";
import { FETCH_WIRES } from "@/tests/fakes/fetch-wires";
import { PAPER_WIRES } from "@/tests/fakes/paper-wires";
import { FAKE_PROVIDER_IDS } from "@/tests/fakes/provider-server";
import { fakeProviderEnv, fakeProviderWires, registeredProviders } from "@/tests/support/provider-env";

const ORIGIN = "http://127.0.0.1:9";
const env = fakeProviderEnv(ORIGIN);
/**
 * Providers without a base URL variable: the direct fetcher fetches its target, kept on loopback by
 * no-outside-network.ts; the workspace model's base URL is stored with its key, never in the environment.
 */
const WITHOUT_BASE_URL = ["direct", "workspace_llm"];

describe("the providers' test environment", () => {
  it("covers every provider the product knows", () => {
    const ids = new Set(registeredProviders().map((provider) => provider.id));
    expect([...ids].sort()).toEqual([...providerCatalog().keys()].sort());
  });

  it("points every registered provider at the fake server, or leaves it unconfigured, as the app resolves base URLs", () => {
    for (const provider of registeredProviders()) {
      if (WITHOUT_BASE_URL.includes(provider.id)) {
        expect(provider.baseUrlEnv, provider.id).toBe("");
        continue;
      }
      expect(env[provider.baseUrlEnv], provider.id).toBeDefined();
      const baseUrl = providerBaseUrl(provider, env);
      if (provider.defaultBaseUrl) expect(baseUrl, provider.id).toMatch(/^http:\/\/127\.0\.0\.1:9(\/|$)/);
      else expect(baseUrl, provider.id).toBeUndefined();
    }
  });

  it("points each variable at a wire the fake server serves", () => {
    const served = [
      ...FAKE_PROVIDER_IDS,
      ...Object.keys({ ...FETCH_WIRES, ...ANSWER_WIRES, ...PAPER_WIRES }),
    ];
    expect(served).toEqual(expect.arrayContaining(fakeProviderWires()));
  });

  it("empties every operator key and the operator model, so a developer's own stay out", () => {
    const keys = registeredProviders().flatMap((provider) => provider.keyEnv);
    expect(keys.length).toBeGreaterThan(0);
    for (const name of [...keys, OPERATOR_LLM_MODEL_ENV]) expect(env[name], name).toBe("");
    const withKey = operatorProviderEntries(registeredProviders(), env).filter((e) => e.apiKey !== undefined);
    expect(withKey).toEqual([]);
  });
});
