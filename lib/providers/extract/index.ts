/**
 * Extractors in the order the extract tool tries them for a URL: Firecrawl's own extraction (it reads the
 * page itself, a fixed price a page), then the operator's model over the page text fetched through the fetch
 * path. A call's `providers` narrows and orders nothing else: the order is this one.
 */
import type { ExtractProvider } from "@/lib/engine/extract/types";
import { firecrawlExtractor } from "./firecrawl";
import { operatorModelExtractor } from "./model";

export const extractProviders: readonly ExtractProvider[] = [firecrawlExtractor, operatorModelExtractor];
