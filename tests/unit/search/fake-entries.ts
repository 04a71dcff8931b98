/** Provider entries that point real adapters at the fake provider server (tests and bench). */
import type { ProviderEntry } from "@/lib/engine/search/attempt";
import { getSearchProvider } from "@/lib/providers/search";
import type { FakeProviderId, FakeProviders } from "@/tests/fakes/provider-server";

const TEST_API_KEY = "sk-test-0123456789";

export function fakeEntry(
  fake: FakeProviders,
  id: FakeProviderId,
  overrides: Partial<Omit<ProviderEntry, "provider">> = {},
): ProviderEntry {
  const provider = getSearchProvider(id);
  if (provider === undefined) throw new Error(`no adapter registered for ${id}`);
  const apiKey = provider.keyEnv.length > 0 ? TEST_API_KEY : undefined;
  return { provider, apiKey, baseUrl: fake.baseUrlFor(id), ...overrides };
}
