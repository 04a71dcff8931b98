/** Registry of paper search adapters. Adding a provider = one new file + one line here. */
import type { PaperProvider } from "@/lib/engine/papers/types";
import type { ProviderId } from "@/lib/engine/shared/types";
import { arxiv } from "./arxiv";
import { openalex } from "./openalex";
import { pubmed } from "./pubmed";
import { semanticScholar } from "./semantic-scholar";

export const paperProviders: readonly PaperProvider[] = [arxiv, pubmed, semanticScholar, openalex];

const byId = new Map(paperProviders.map((provider) => [provider.id, provider]));

export function getPaperProvider(id: ProviderId): PaperProvider | undefined {
  return byId.get(id);
}
