/** Small pieces every adapter needs, kept in one place so adapters stay declarative. */

import type { z } from "zod";
import type {
  ProviderCall,
  ProviderCapabilities,
  ProviderResponse,
  ProviderResult,
} from "@/lib/engine/search/types";
import { ProviderError } from "@/lib/engine/shared/errors";
import type { ProviderRegistration } from "@/lib/engine/shared/types";
import {
  type ProviderJsonResponse,
  type ProviderRequestOptions,
  parseResponse,
  requestJson,
} from "@/lib/http/provider-client";
import { publishedDate } from "./dates";
import { cleanText } from "./text";

/** Keyed adapters (of every tool) call this first; the engine normally skips unconfigured providers. */
export function requireApiKey(call: Pick<ProviderCall, "apiKey">, displayName: string): string {
  if (!call.apiKey) throw new ProviderError("not_configured", `${displayName} needs an API key`);
  return call.apiKey;
}

/**
 * What a provider's other tools (images, find-similar) share with its web search registration: the id its
 * key is stored under, the key and base-URL variables, price, free tier, timeout and pacing. An adapter
 * spreads it and names what differs (its docs, its safesearch levels).
 */
export function sameAccount(provider: ProviderRegistration): ProviderRegistration {
  const { id, displayName, keyEnv, keyOptional, baseUrlEnv, defaultBaseUrl, docsUrl, apiVersion } = provider;
  const { price, defaultTimeoutMs, requestsPerSecond } = provider;
  return {
    id,
    displayName,
    keyEnv,
    ...(keyOptional !== undefined && { keyOptional }),
    baseUrlEnv,
    defaultBaseUrl,
    docsUrl,
    apiVersion,
    price,
    defaultTimeoutMs,
    ...(requestsPerSecond !== undefined && { requestsPerSecond }),
  };
}

type NativeFilter = Exclude<keyof ProviderCapabilities, "queryOperators">;

/**
 * A registration's capabilities, written as what the provider applies itself: the filters and query
 * operators named; the engine post-filters every other constraint.
 */
export function supports({
  filters = [],
  queryOperators = [],
}: {
  filters?: readonly NativeFilter[];
  queryOperators?: ProviderCapabilities["queryOperators"];
}): ProviderCapabilities {
  const applies = (filter: NativeFilter) => filters.includes(filter);
  return {
    timeRange: applies("timeRange"),
    region: applies("region"),
    safesearch: applies("safesearch"),
    includeDomains: applies("includeDomains"),
    excludeDomains: applies("excludeDomains"),
    queryOperators,
  };
}

/** One result as a provider returned it, before clean-up. */
export interface RawResult {
  title?: string | null;
  url?: string | null;
  snippet?: string | null;
  publishedAt?: string | null;
  /** The publisher's name (news results). */
  source?: string | null;
}

/**
 * Cleans titles, snippets and publishers (tags, entities, whitespace), reads dates (publishedDate), drops
 * entries without an http(s) URL, keeps the provider's order and caps the list at `maxResults`.
 */
export function toProviderResponse(
  raw: readonly RawResult[],
  call: ResultsCall,
  http: Pick<ProviderJsonResponse, "status" | "bytes" | "rateLimit">,
): ProviderResponse {
  const results: ProviderResult[] = [];
  for (const item of raw) {
    const url = item.url?.trim();
    if (!url || !/^https?:\/\//i.test(url)) continue;
    const result: ProviderResult = {
      title: cleanText(item.title) || url,
      url,
      snippet: cleanText(item.snippet),
    };
    if (item.publishedAt?.trim()) result.publishedAt = publishedDate(item.publishedAt);
    const source = cleanText(item.source);
    if (source) result.source = source;
    results.push(result);
    if (results.length >= call.options.maxResults) break;
  }
  return {
    results,
    httpStatus: http.status,
    bytes: http.bytes,
    ...(http.rateLimit && { rateLimit: http.rateLimit }),
  };
}

/** What cleaning a provider's list needs of a call: how many results were asked for. */
interface ResultsCall {
  options: Pick<ProviderCall["options"], "maxResults">;
}

/** A JSON search request, the schema its answer must match and where the results are in that answer. */
export interface ResultsRequest<S extends z.ZodType> extends Omit<ProviderRequestOptions, "signal"> {
  schema: S;
  results(data: z.output<S>): readonly RawResult[];
}

/**
 * The JSON round trip most adapters make: sends the request under the call's signal, checks the answer
 * against the adapter's schema (invalid_response otherwise) and cleans its results (toProviderResponse).
 */
export async function requestResults<S extends z.ZodType>(
  call: ResultsCall & Pick<ProviderCall, "signal">,
  url: string,
  { schema, results, ...options }: ResultsRequest<S>,
): Promise<ProviderResponse> {
  const response = await requestJson(url, { ...options, signal: call.signal });
  return toProviderResponse(results(parseResponse(schema, response.json)), call, response);
}
