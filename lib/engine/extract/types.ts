/**
 * Contract between the extraction engine (lib/engine/extract) and its adapters (lib/providers/extract): a
 * model that fills a JSON Schema from page text we read, or a service that reads the page itself and fills
 * it (Firecrawl). Pure types: no I/O, no env, no database.
 */
import type {
  ModelPrice,
  ProviderRegistration,
  ResolvedProvider,
  TransportFacts,
} from "@/lib/engine/shared/types";
import type { EndpointGuard } from "@/lib/http/endpoint-request";
import type { JsonSchema } from "./schema";

export type { ModelPrice };

/** One message of a chat with a model: the prompt, then for a repair its answer and the errors found. */
export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
}

interface ExtractCallBase {
  url: string;
  /** The schema the reply must fill: the caller's, or with `passages` the envelope around it (prompt.ts). */
  schema: JsonSchema;
  apiKey?: string;
  baseUrl: string;
  /** Aborts on the provider's timeout or the call's deadline, whichever comes first. */
  signal: AbortSignal;
  /** The network rules of a base URL the workspace supplied (the workspace model); the strictest without. */
  guard?: EndpointGuard;
}

/** A model call: the chat so far; the adapter asks for structured output of `schema`. */
interface ModelExtractCall extends ExtractCallBase {
  model: string;
  messages: readonly ChatMessage[];
  /** Whether the schema keeps to what strict structured outputs accept (every property required, no extras). */
  strict: boolean;
  maxOutputTokens: number;
}

/** A service that reads the page itself: the URL, the schema and the caller's prompt. */
interface ReadingExtractCall extends ExtractCallBase {
  prompt?: string;
}

/** What came back: the JSON text (parsed and checked by the engine) and the tokens used, when reported. */
export interface ExtractReply extends TransportFacts {
  json: string;
  usage?: TokenUsage;
}

interface ExtractProviderBase extends ProviderRegistration {
  /** A model's name unless the entry names one; "" when the operator must name it. */
  defaultModel?: string;
}

/** What a model server is asked for the models it serves (a key check). */
interface ModelListCall {
  apiKey?: string;
  baseUrl: string;
  signal: AbortSignal;
  guard?: EndpointGuard;
}

/** The ids of the models a server lists. */
export interface ModelList extends TransportFacts {
  ids: string[];
}

/** A model over the page text we fetched (the fetch path: SSRF guard, routes, waterfall). */
export interface ModelExtractor extends ExtractProviderBase {
  reads: "text";
  extract(call: ModelExtractCall): Promise<ExtractReply>;
  /** The models the server lists: a free request that checks the key and the model's name. */
  models(call: ModelListCall): Promise<ModelList>;
}

/** A service that fetches the page itself and fills the schema (Firecrawl's JSON format). */
export interface ReadingExtractor extends ExtractProviderBase {
  reads: "url";
  extract(call: ReadingExtractCall): Promise<ExtractReply>;
}

export type ExtractProvider = ModelExtractor | ReadingExtractor;

/**
 * An extractor as the caller resolved it: key, base URL, and for a model its name, its price and, for a base
 * URL the workspace supplied, the network rules its requests are held to.
 */
export type ExtractEntry = ResolvedProvider<ExtractProvider> & {
  model?: string;
  price?: ModelPrice;
  guard?: EndpointGuard;
};
