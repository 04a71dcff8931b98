/**
 * Extractors in the order the extract tool tries them for a URL: Firecrawl's own extraction (it reads the
 * page itself, a fixed price a page), then the models over the page text fetched through the fetch path: the
 * workspace's own model first (what the workspace chose to pay for), then the operator's. A call's
 * `providers` narrows and orders nothing else: the order is this one.
 */
import type { ExtractProvider } from "@/lib/engine/extract/types";
import { firecrawlExtractor } from "./firecrawl";
import { operatorModelExtractor, workspaceModelExtractor } from "./model";

export const extractProviders: readonly ExtractProvider[] = [
  firecrawlExtractor,
  workspaceModelExtractor,
  operatorModelExtractor,
];
