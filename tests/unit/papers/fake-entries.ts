/** Paper provider entries that point real adapters at the fake provider server. */
import type { PaperEntry } from "@/lib/engine/papers/types";
import { getPaperProvider } from "@/lib/providers/papers";
import { PAPER_PREFIX } from "@/tests/fakes/paper-wires";
import type { FakeProviders } from "@/tests/fakes/provider-server";

export type PaperProviderId = "arxiv" | "pubmed" | "semantic_scholar" | "openalex";

export function paperEntry(
  fake: FakeProviders,
  id: PaperProviderId,
  overrides: Partial<Omit<PaperEntry, "provider">> = {},
): PaperEntry {
  const provider = getPaperProvider(id);
  if (provider === undefined) throw new Error(`no paper adapter registered for ${id}`);
  // PubMed's two endpoints sit at the fake server's root (see paper-wires.ts).
  const baseUrl = id === "pubmed" ? fake.url : fake.baseUrlFor(PAPER_PREFIX[id]);
  return { provider, baseUrl, ...overrides };
}

export const allPaperEntries = (fake: FakeProviders) =>
  (["arxiv", "pubmed", "semantic_scholar", "openalex"] as const).map((id) => paperEntry(fake, id));
