/** Small pieces the paper adapters share. */
import type { PaperSearchOptions, RawPaper } from "@/lib/engine/papers/types";
import { cleanText } from "@/lib/providers/search/text";

/** A paper with clean title/abstract text; null when it has no title (nothing to show or merge on). */
function cleanPaper(paper: RawPaper): RawPaper | null {
  const title = cleanText(paper.title);
  if (title === "") return null;
  const cleaned: RawPaper = { ...paper, title, authors: paper.authors.map(cleanText).filter(Boolean) };
  const abstract = cleanText(paper.abstract);
  if (abstract) cleaned.abstract = abstract;
  else delete cleaned.abstract;
  return cleaned;
}

export function cleanPapers(papers: readonly RawPaper[], options: PaperSearchOptions): RawPaper[] {
  return papers.flatMap((paper) => cleanPaper(paper) ?? []).slice(0, options.maxResults);
}

/** "2021-03-04T…", "2021 Mar 4", "2021" → the year; undefined when there is none. */
export function yearOf(date: string | null | undefined): number | undefined {
  const match = /\b(1[0-9]{3}|2[0-9]{3})\b/.exec(date ?? "");
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/** A year range in the provider's "from-to" form ("2019-2023", "2019-", "-2023"); undefined when open. */
export function yearRange(options: PaperSearchOptions): string | undefined {
  if (options.yearFrom === undefined && options.yearTo === undefined) return undefined;
  return `${options.yearFrom ?? ""}-${options.yearTo ?? ""}`;
}
