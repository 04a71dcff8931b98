/** The last step every numbered-source adapter shares: empty check, citation normalisation, transport facts. */
import type { ProviderAnswer } from "@/lib/engine/answer/types";
import { ProviderError } from "@/lib/engine/shared/errors";
import type { TokenUsage } from "@/lib/engine/shared/types";
import { citeNumbered, numberFromOne, type SourceRef } from "./citations";

/**
 * The longest answer a model billed by tokens is asked to write (its max_tokens): concise answers fit well
 * within it, and it bounds what a call can be charged for output.
 */
export const ANSWER_MAX_OUTPUT_TOKENS = 4_096;

export interface RawAnswer {
  displayName: string;
  model: string;
  text: string | null | undefined;
  /** The provider's source list, 1-based in the order its [n] markers use. */
  sources: readonly SourceRef[];
  http: { status: number; bytes: number };
  usage?: TokenUsage;
}

export function toProviderAnswer(raw: RawAnswer): ProviderAnswer {
  const text = raw.text?.trim() ?? "";
  if (text === "") throw new ProviderError("invalid_response", `${raw.displayName} returned an empty answer`);
  const cited = citeNumbered(text, numberFromOne(raw.sources));
  return {
    model: raw.model,
    answer: cited.answer,
    citations: cited.citations,
    httpStatus: raw.http.status,
    bytes: raw.http.bytes,
    ...(raw.usage && { usage: raw.usage }),
  };
}
