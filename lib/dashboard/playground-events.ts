/**
 * The playground's run protocol: the browser POSTs `{tool, input}` to /dashboard/playground/run and reads
 * NDJSON back, one event per line: a `progress` event as each provider finishes, then one `result` (the
 * same shape the REST API returns) or one `error`.
 */
import type { z } from "zod";
import type { ProviderSpan } from "@/lib/engine/shared/types";
import type { ProviderProgress } from "@/lib/pipeline/provider-attempts";
import type { ToolName, ToolNamed } from "@/lib/tools/table";
import type { RestRoute } from "./curl-command";

/** A tool of the table (lib/tools/table.ts); the page offers those the playground shows. */
export type PlaygroundTool = ToolName;

/** A tool as the page offers it, with the providers that can serve it now. */
export interface PlaygroundToolOption {
  name: PlaygroundTool;
  title: string;
  providers: Array<{ id: string; name: string }>;
  /** Its REST route, for "Copy as curl". */
  rest: RestRoute;
}

/** A tool's response in its REST shape, tagged with the tool. */
export type PlaygroundResult = {
  [Name in ToolName]: { tool: Name; response: z.output<ToolNamed<Name>["outputSchema"]> };
}[ToolName];

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
