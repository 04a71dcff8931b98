/** Fetch provider entries for tests: the direct fetcher, and real adapters pointed at the fake provider server. */
import type { FetchProviderEntry } from "@/lib/engine/fetch/types";
import { parseAllowlist } from "@/lib/http/ssrf";
import { getFetchProvider } from "@/lib/providers/fetch";
import { DIRECT_BASE_URL } from "@/lib/providers/fetch/direct";
import { fetchWireId } from "@/tests/fakes/fetch-wires";
import type { FakeProviders } from "@/tests/fakes/provider-server";

export const TEST_KEY = "sk-fetch-test-0123456789";
/** What SEARCHMUX_FETCH_ALLOWLIST=127.0.0.1 gives: the loopback fixtures and nothing else. */
export const LOOPBACK_ONLY = { allowlist: parseAllowlist(["127.0.0.1"]) };

export function directEntry(): FetchProviderEntry {
  return { provider: provider("direct"), baseUrl: DIRECT_BASE_URL };
}

/** `apiKey: null` for a keyless call (Jina Reader, GitHub without a token). */
export function fakeFetchEntry(
  fake: FakeProviders,
  id: string,
  apiKey: string | null = TEST_KEY,
): FetchProviderEntry {
  return { provider: provider(id), baseUrl: fake.baseUrlFor(fetchWireId(id)), apiKey: apiKey ?? undefined };
}

function provider(id: string) {
  const found = getFetchProvider(id);
  if (found === undefined) throw new Error(`no fetch adapter registered for ${id}`);
  return found;
}
