/**
 * Registry of web-search provider adapters. Adding a provider = one new file + one line here.
 * Order is only a stable default for listings; routing order is the engine's business.
 */
import type { ProviderId, SearchProvider } from "@/lib/engine/search/types";
import { brave } from "./brave";
import { duckduckgo } from "./duckduckgo";
import { exa } from "./exa";
import { firecrawl } from "./firecrawl";
import { jina } from "./jina";
import { kagi } from "./kagi";
import { linkup } from "./linkup";
import { perplexity } from "./perplexity";
import { searxng } from "./searxng";
import { serpapi } from "./serpapi";
import { serper } from "./serper";
import { tavily } from "./tavily";
import { wikipedia } from "./wikipedia";
import { you } from "./you";

export const searchProviders: readonly SearchProvider[] = [
  duckduckgo,
  searxng,
  wikipedia,
  tavily,
  brave,
  exa,
  serper,
  serpapi,
  kagi,
  jina,
  you,
  linkup,
  firecrawl,
  perplexity,
];

const byId = new Map(searchProviders.map((provider) => [provider.id, provider]));

export function getSearchProvider(id: ProviderId): SearchProvider | undefined {
  return byId.get(id);
}
