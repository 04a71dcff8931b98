/**
 * Exa — find similar.
 * Docs: https://exa.ai/docs/reference/find-similar-links (REST, unversioned)
 * Wire: POST {base}/findSimilar, `x-api-key: <key>`, JSON body
 *   {url, numResults, excludeSourceDomain, excludeDomains, contents: {text: {maxCharacters}}}
 *   -> {requestId, results: [{title, url, id, publishedDate?, author?, score?, text?}], costDollars?}.
 * Priced as a search (the price table's `exa`, by the results it returns), on the same key.
 */
import type { SimilarProvider } from "@/lib/engine/similar/types";
import { buildUrl } from "@/lib/http/provider-client";
import { requestResults, requireApiKey, sameAccount } from "@/lib/providers/search/adapter-kit";
import { exaResponse, exa as exaSearch, fromExaResults } from "@/lib/providers/search/exa";

const MAX_RESULTS = 25;
const SNIPPET_CHARACTERS = 600;

export const exa: SimilarProvider = {
  ...sameAccount(exaSearch),
  docsUrl: "https://exa.ai/docs/reference/find-similar-links",
  apiVersion: "2025 REST (unversioned)",

  async findSimilar(call) {
    const maxResults = Math.min(call.maxResults, MAX_RESULTS);
    return requestResults(
      { options: { maxResults }, signal: call.signal },
      buildUrl(call.baseUrl, "/findSimilar"),
      {
        method: "POST",
        headers: { "x-api-key": requireApiKey(call, exaSearch.displayName) },
        json: {
          url: call.url,
          numResults: maxResults,
          excludeSourceDomain: false,
          excludeDomains: call.excludeDomains.length > 0 ? call.excludeDomains : undefined,
          contents: { text: { maxCharacters: SNIPPET_CHARACTERS } },
        },
        schema: exaResponse,
        results: fromExaResults,
      },
    );
  },
};
