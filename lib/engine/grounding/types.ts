/**
 * Research depth for web_search, after fusion: grounded snippets (top results read and re-described by a
 * model) and page contents (top results' Markdown). Pure types: no I/O, no env, no database.
 */
import type { AnswerEntry } from "@/lib/engine/answer/types";
import type { FetchProvider, FetchProviderEntry } from "@/lib/engine/fetch/types";
import type { FusedResult } from "@/lib/engine/search/types";
import type { AdmitHook, ProviderSpan, TransportFacts } from "@/lib/engine/shared/types";
import type { Allowlist, Resolver } from "@/lib/http/ssrf";
import type { SnippetPrompt } from "./prompt";

/** The OpenAI-compatible model that writes snippets, with its model name resolved. */
export type ModelEntry = AnswerEntry & { model: string };

/** The model's reply to one snippet prompt, with what the transport saw. */
export interface ModelReply extends TransportFacts {
  text: string;
}

/** One call of the snippet model over the caller's wire; provider faults throw ProviderError. */
export type CompleteChat = (
  model: ModelEntry,
  prompt: SnippetPrompt,
  signal: AbortSignal,
) => Promise<ModelReply>;

/** A fetch or model call made by a stage, offsets relative to the tool call's start. */
export type StageSpan = ProviderSpan<"fetch" | "llm">;

/** A fused result, possibly with its page's Markdown (include_content) or why it has none. */
export type ResearchResult = FusedResult & { content?: string; content_error?: string };

/** How the stages reach pages: the caller's fetch steps, SSRF policy and budget admission. */
export interface PageAccess {
  fetchEntries: readonly FetchProviderEntry[];
  /** Every fetch provider the caller knows: the domain routes that may refuse a result's URL. */
  fetchRegistry: readonly FetchProvider[];
  ssrf: { allowlist: Allowlist; resolver?: Resolver };
  admitFetch?: AdmitHook;
  /** performance.now() when the tool call started; span offsets are relative to it. */
  origin: number;
}

/** Why a page gave nothing usable, and whether trying again later might (such results are not cached). */
export interface PageProblem {
  reason: string;
  message: string;
  transient: boolean;
}

/** One grounded page: the model's snippet, or the fused snippet kept and why. */
export interface GroundedPage {
  url: string;
  snippet_source: "grounded" | "fallback";
  /** The fetch step whose page the model read. */
  fetched_by?: string;
  /** Fetch attempts made (at most two: the first step, then one other). */
  attempts: number;
  problem?: PageProblem;
}

/** One include_content page: fetched by a step, or why not. */
export interface ContentPage {
  url: string;
  provider?: string;
  problem?: PageProblem;
}
