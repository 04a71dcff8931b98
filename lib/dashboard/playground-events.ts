/**
 * The playground's run protocol: the browser POSTs `{tool, input}` to /dashboard/playground/run and reads
 * NDJSON back, one event per line: a `progress` event as each provider finishes, then one `result` (the
 * same shape the REST API returns) or one `error`.
 */
import type { AnswerResponse, FetchResponse, PaperSearchResponse, SearchResponse } from "@/lib/api/responses";
import type { ProviderSpan } from "@/lib/engine/shared/types";
import type { ProviderProgress } from "@/lib/services/provider-attempts";

export const PLAYGROUND_TOOLS = ["web_search", "fetch", "answer", "paper_search"] as const;
export type PlaygroundTool = (typeof PLAYGROUND_TOOLS)[number];

export type PlaygroundResult =
  | { tool: "web_search"; response: SearchResponse }
  | { tool: "fetch"; response: FetchResponse }
  | { tool: "answer"; response: AnswerResponse }
  | { tool: "paper_search"; response: PaperSearchResponse };

export interface PlaygroundError {
  code: string;
  message: string;
  /** Schema issues for `invalid_input`: `[{path, message}]`. */
  details?: unknown;
}

export type PlaygroundEvent =
  | { type: "progress"; span: ProviderProgress }
  /** `spans`: every provider step of the call as its trace stores them (free steps such as fetch's
   * direct fetcher are not reported live); empty for a cache hit. */
  | ({ type: "result"; spans: ProviderSpan[] } & PlaygroundResult)
  | { type: "error"; error: PlaygroundError };
