/**
 * SearXNG is always sent a safesearch level: without one the instance applies its own default, which is 0
 * (no filtering) in SearXNG's settings.yml, so a call that names none gets moderate, the level Brave applies
 * by default; a level the call names is sent as it is.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getSearchProvider } from "@/lib/providers/search";
import { providerCall } from "@/tests/fakes/provider-call";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";

let fake: FakeProviders;
beforeAll(async () => {
  fake = await startFakeProviders();
});
afterAll(async () => {
  await fake.close();
});

async function safesearchSent(safesearch?: "off" | "moderate" | "strict"): Promise<string | undefined> {
  fake.clearRequests();
  const provider = getSearchProvider("searxng");
  if (!provider) throw new Error("no searxng adapter");
  await provider.search(
    providerCall(fake.baseUrlFor("searxng"), {
      query: { raw: "otters", terms: "otters" },
      options: { maxResults: 3, ...(safesearch && { safesearch }) },
    }),
  );
  return fake.requests("searxng")[0]?.query.safesearch;
}

describe("SearXNG safesearch", () => {
  it("sends moderate (1) when the call names no level, and a named level as it is", async () => {
    expect(await safesearchSent()).toBe("1");
    expect(await safesearchSent("off")).toBe("0");
    expect(await safesearchSent("strict")).toBe("2");
  });
});
