import type { SearchInput } from "./input";
import type { ParsedQuery, SearchRequestOptions } from "./types";

/** Adapter options from validated input and the query's operators: site: joins include_domains, -site: exclude_domains. */
export function buildRequestOptions(input: SearchInput, query: ParsedQuery): SearchRequestOptions {
  const options: SearchRequestOptions = {
    maxResults: input.max_results,
    topic: input.topic,
    includeDomains: union(input.include_domains, query.sites),
    excludeDomains: union(input.exclude_domains, query.excludeSites),
  };
  if (input.time_range !== undefined) options.timeRange = input.time_range;
  if (input.region !== undefined) options.region = input.region;
  if (input.safesearch !== undefined) options.safesearch = input.safesearch;
  if (input.language !== undefined) options.language = input.language;
  return options;
}

function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])];
}
