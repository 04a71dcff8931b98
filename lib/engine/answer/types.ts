/**
 * Contract between the answer engine (lib/engine/answer) and the answer adapters
 * (lib/providers/answer/<id>.ts). Pure types: no I/O, no env, no database.
 */
import type {
  ProviderFailure,
  ProviderId,
  ProviderRegistration,
  ProviderSpan,
  ResolvedProvider,
  TokenUsage,
  TransportFacts,
} from "@/lib/engine/shared/types";

export interface Citation {
  title: string;
  url: string;
}

/** One web result an answer is grounded in (from the caller's web_search). */
export interface GroundingSource {
  url: string;
  title: string;
  snippet: string;
}

/** Runs our own web search for grounded providers; supplied by the caller so the engine stays search-free. */
export type GroundingSearch = (query: string, signal: AbortSignal) => Promise<GroundingSource[]>;

/** Everything one adapter call gets. Keys arrive here; adapters never read env or the database. */
export interface AnswerCall {
  query: string;
  apiKey?: string;
  baseUrl: string;
  /** entry.model, else the registration's defaultModel. */
  model: string;
  /** Aborts on the provider timeout or the overall deadline, whichever comes first. */
  signal: AbortSignal;
  /**
   * Web results to ground the answer in, shared by every grounded provider of the call (one search).
   * Resolves to [] when the caller supplied no grounding search.
   */
  grounding(): Promise<GroundingSource[]>;
}

/** What an adapter returns: a Markdown answer whose [n] markers point at citations[n - 1]. */
export interface ProviderAnswer extends TransportFacts {
  model: string;
  answer: string;
  citations: Citation[];
  /** The tokens the provider's answer says it billed, where it says so (a price with a token part charges them). */
  usage?: TokenUsage;
}

export interface AnswerProvider extends ProviderRegistration {
  /** Model used when the entry names none; "" when it must be configured. */
  defaultModel: string;
  /** True when the adapter feeds call.grounding() into its prompt (plain LLMs without web access). */
  grounded: boolean;
  /**
   * For a provider billed by tokens: the most a call for `query` can be billed for, input (the longest prompt
   * it sends, a token per character, plus what the provider adds itself) and output (the max tokens it asks
   * for). The reservation and the estimate are priced at it (lib/engine/answer/answer-pricing.ts).
   */
  tokenCeiling?(query: string): TokenUsage;
  answer(call: AnswerCall): Promise<ProviderAnswer>;
}

/** An answer provider as the caller resolved it: key, base URL and optionally a model. */
export interface AnswerEntry extends ResolvedProvider<AnswerProvider> {
  model?: string;
}

export interface AnswerItem {
  provider: ProviderId;
  model: string;
  answer: string;
  citations: Citation[];
  duration_ms: number;
}

/** A cited page two or more answers share. */
export interface SharedCitation {
  url: string;
  title: string;
  providers: ProviderId[];
}

export interface Agreement {
  /** How many providers answered. */
  answers: number;
  /** Cited by at least two answers, most shared first. */
  shared_citations: SharedCitation[];
}

export type AnswerSpan = ProviderSpan<"answer">;

/** Sent as each provider completes (MCP progress notifications). */
export interface AnswerProgress {
  provider: ProviderId;
  outcome: "answered" | "failed";
  reason?: ProviderFailure["reason"];
  duration_ms: number;
  completed: number;
  total: number;
}
