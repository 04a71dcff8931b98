/**
 * Where answers agree on sources: the cited pages (by normalised URL, as web_search fuses them) that
 * two or more answers share, most shared first, then in order of first citation.
 */
import { normalizeUrl } from "@/lib/engine/search/url";
import type { Agreement, AnswerItem, SharedCitation } from "./types";

export function computeAgreement(answers: readonly AnswerItem[]): Agreement {
  const byKey = new Map<string, SharedCitation>();
  for (const item of answers) {
    for (const citation of item.citations) {
      const key = normalizeUrl(citation.url);
      if (key === null) continue;
      const shared = byKey.get(key);
      if (shared === undefined) {
        byKey.set(key, { url: citation.url, title: citation.title, providers: [item.provider] });
      } else if (!shared.providers.includes(item.provider)) {
        shared.providers.push(item.provider);
      }
    }
  }
  // Array.prototype.sort is stable: equally shared pages keep their first-citation order.
  const sharedCitations = [...byKey.values()]
    .filter((shared) => shared.providers.length >= 2)
    .sort((a, b) => b.providers.length - a.providers.length);
  return { answers: answers.length, shared_citations: sharedCitations };
}
