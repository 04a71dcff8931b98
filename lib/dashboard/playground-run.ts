import {
  toAnswerResponse,
  toFetchResponse,
  toPaperSearchResponse,
  toSearchResponse,
} from "@/lib/api/responses";
import type { ProviderSpan } from "@/lib/engine/shared/types";
import { answer } from "@/lib/services/answer/answer";
import type { TenantContext } from "@/lib/services/context";
import { fetchPage } from "@/lib/services/fetch/fetch-page";
import { paperSearch } from "@/lib/services/papers/paper-search";
import type { OnProgress } from "@/lib/services/provider-attempts";
import { webSearch } from "@/lib/services/search/web-search";
import type { PlaygroundResult, PlaygroundTool } from "./playground-events";

type InputOf<Verb extends (args: { ctx: TenantContext; input: never }) => unknown> =
  Parameters<Verb>[0]["input"];

/** A verb's spans are the original call's when the cache answered; a hit has none of its own. */
const ownSpans = (result: { cache_hit: boolean; spans: readonly ProviderSpan[] }) =>
  result.cache_hit ? [] : [...result.spans];

/**
 * Runs one playground call through the tool's verb (the same one MCP and REST use, with the session's
 * context), reporting each provider as it finishes, and answers in the REST response shape with the
 * call's spans.
 */
export async function runPlaygroundTool(
  ctx: TenantContext,
  tool: PlaygroundTool,
  input: unknown,
  /** Each provider as it finishes; `signal` aborts the call when the browser goes away. */
  { onProgress, signal }: { onProgress: OnProgress; signal: AbortSignal },
): Promise<PlaygroundResult & { spans: ProviderSpan[] }> {
  // Each verb validates `input` with its own schema, exactly as the REST routes pass their bodies on.
  switch (tool) {
    case "web_search": {
      const result = await webSearch({ ctx, input: input as InputOf<typeof webSearch>, onProgress, signal });
      return { tool, response: toSearchResponse(result), spans: ownSpans(result) };
    }
    case "fetch": {
      const result = await fetchPage({ ctx, input: input as InputOf<typeof fetchPage>, onProgress, signal });
      return { tool, response: toFetchResponse(result), spans: ownSpans(result) };
    }
    case "answer": {
      const result = await answer({ ctx, input: input as InputOf<typeof answer>, onProgress, signal });
      return { tool, response: toAnswerResponse(result), spans: ownSpans(result) };
    }
    case "paper_search": {
      const result = await paperSearch({
        ctx,
        input: input as InputOf<typeof paperSearch>,
        onProgress,
        signal,
      });
      return { tool, response: toPaperSearchResponse(result), spans: ownSpans(result) };
    }
  }
}
