/**
 * Registry of fetch providers: the direct fetcher, domain routes (github, supadata for YouTube, reddit,
 * arxiv) and the keyed waterfall providers. Adding a provider = one new file + one line here.
 * Order is only a stable default for listings; the engine orders steps (routes, then cheapest first).
 */
import type { FetchProvider } from "@/lib/engine/fetch/types";
import { arxiv } from "./arxiv";
import { brightdata } from "./brightdata";
import { diffbot } from "./diffbot";
import { direct } from "./direct";
import { exa } from "./exa";
import { firecrawl } from "./firecrawl";
import { github } from "./github";
import { jina } from "./jina";
import { reddit } from "./reddit";
import { scraperapi } from "./scraperapi";
import { scrapfly } from "./scrapfly";
import { scrapingbee } from "./scrapingbee";
import { spider } from "./spider";
import { supadata } from "./supadata";
import { tavily } from "./tavily";
import { zyte } from "./zyte";

export const fetchProviders: readonly FetchProvider[] = [
  direct,
  github,
  supadata,
  reddit,
  arxiv,
  jina,
  firecrawl,
  tavily,
  exa,
  scrapingbee,
  scraperapi,
  zyte,
  brightdata,
  diffbot,
  spider,
  scrapfly,
];

const byId = new Map(fetchProviders.map((provider) => [provider.id, provider]));

export function getFetchProvider(id: string): FetchProvider | undefined {
  return byId.get(id);
}
