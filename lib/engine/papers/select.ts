/**
 * The final list: filters every provider may not have applied natively (year range, open access),
 * then the requested order, then max_results. A paper of unknown year never passes a year filter.
 * relevance: fused score, then best single rank, then title; date: newest publication first (unknown
 * dates last), then score.
 */
import { compareStrings } from "@/lib/engine/search/text";
import type { PaperRecord, PaperSearchOptions } from "./types";

export function selectPapers(records: readonly PaperRecord[], options: PaperSearchOptions): PaperRecord[] {
  return records
    .filter((record) => withinYears(record, options) && (!options.openAccessOnly || record.open_access))
    .sort(options.sort === "date" ? byDate : byRelevance)
    .slice(0, options.maxResults);
}

function withinYears(record: PaperRecord, { yearFrom, yearTo }: PaperSearchOptions): boolean {
  if (yearFrom === undefined && yearTo === undefined) return true;
  if (record.year === null) return false;
  return (
    (yearFrom === undefined || record.year >= yearFrom) && (yearTo === undefined || record.year <= yearTo)
  );
}

function byRelevance(a: PaperRecord, b: PaperRecord): number {
  return (
    b.score - a.score ||
    bestRank(a) - bestRank(b) ||
    compareStrings(a.title.toLowerCase(), b.title.toLowerCase())
  );
}

function byDate(a: PaperRecord, b: PaperRecord): number {
  return compareStrings(dateKey(b), dateKey(a)) || byRelevance(a, b);
}

/** Sortable date text; unknown dates sort before every real one, so they come last when descending. */
function dateKey(record: PaperRecord): string {
  return record.published ?? (record.year === null ? "" : String(record.year));
}

function bestRank(record: PaperRecord): number {
  return Math.min(...record.sources.map((source) => source.rank));
}
