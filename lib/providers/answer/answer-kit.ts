/** The last step every numbered-source adapter shares: empty check, citation normalisation, transport facts. */
import type { ProviderAnswer } from "@/lib/engine/answer/types";
import { ProviderError } from "@/lib/engine/shared/errors";
import { citeNumbered, numberFromOne, type SourceRef } from "./citations";

export interface RawAnswer {
  displayName: string;
  model: string;
  text: string | null | undefined;
  /** The provider's source list, 1-based in the order its [n] markers use. */
  sources: readonly SourceRef[];
  http: { status: number; bytes: number };
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
  };
}
