import { describe, expect, it } from "vitest";
import { operatorProviderEntries, operatorProviderIds } from "@/lib/pipeline/providers/operator-providers";
import { searchProviders } from "@/lib/providers/search";

describe("operator providers", () => {
  it("offers only keyless providers with a usable base URL when nothing is configured", () => {
    expect(operatorProviderIds(searchProviders, {}).sort()).toEqual(["duckduckgo", "wikipedia"]);
  });

  it("adds SearXNG with SEARXNG_URL and keyed providers with their operator key", () => {
    const env = { SEARXNG_URL: "http://searx.internal", BRAVE_API_KEY: "brave-key", EXA_API_KEY: "  " };
    const entries = operatorProviderEntries(searchProviders, env);
    expect(entries.map((e) => e.provider.id).sort()).toEqual(["brave", "duckduckgo", "searxng", "wikipedia"]);
    expect(entries.find((e) => e.provider.id === "searxng")?.baseUrl).toBe("http://searx.internal");
    expect(entries.find((e) => e.provider.id === "brave")).toMatchObject({
      apiKey: "brave-key",
      baseUrl: "https://api.search.brave.com",
    });
  });

  it("honours <PROVIDER>_BASE_URL overrides", () => {
    const entries = operatorProviderEntries(searchProviders, {
      TAVILY_API_KEY: "k",
      TAVILY_BASE_URL: "http://proxy:8080",
    });
    expect(entries.find((e) => e.provider.id === "tavily")?.baseUrl).toBe("http://proxy:8080");
  });

  it("declares a key env variable, base URL env variable and timeout for every provider", () => {
    for (const provider of searchProviders) {
      expect(provider.id).toMatch(/^[a-z]+$/);
      expect(provider.baseUrlEnv).toMatch(/^[A-Z]+_(BASE_)?URL$/);
      expect(provider.defaultTimeoutMs).toBeGreaterThan(0);
      for (const name of provider.keyEnv) expect(name).toMatch(/^[A-Z]+_API_KEY$/);
    }
  });
});
