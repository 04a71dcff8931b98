/**
 * Post-filters: constraints a provider did not apply natively are applied to its own list before
 * fusion, so a result is only judged by constraints its provider ignored (another provider that
 * applied the constraint itself is trusted).
 *
 * A constraint counts as native when the provider's capabilities say so, either as an API parameter
 * or as an operator it understands in the query text (adapters put it there, see query-text.ts):
 * - domains: host equals the domain or is a subdomain of it (include: any listed; exclude: none);
 * - filetype: URL path ends in `.<ext>`;
 * - intitle: every intitle value occurs in the title, phrases: every phrase occurs in title or snippet
 *   (word sequences, case and punctuation ignored);
 * - after/before/time_range: by publishedAt; a result without a parsable date is kept, because absence
 *   of a date says nothing about the page's age. after is inclusive, before exclusive.
 * region and safesearch cannot be checked on a result and are left to the providers.
 */
import { hostMatchesAny } from "./domains";
import type { RankedResult } from "./ranked-results";
import { tokenize } from "./text";
import type { ParsedQuery, ProviderCapabilities, SearchRequestOptions, TimeRange } from "./types";

const DAY_MS = 86_400_000;
const TIME_RANGE_DAYS: Readonly<Record<TimeRange, number>> = { day: 1, week: 7, month: 31, year: 365 };

type Check = (item: RankedResult) => boolean;

export function postFilter(
  items: readonly RankedResult[],
  query: ParsedQuery,
  options: SearchRequestOptions,
  capabilities: ProviderCapabilities,
  nowMs: number,
): RankedResult[] {
  const checks = checksFor(query, options, capabilities, nowMs);
  return checks.length === 0 ? [...items] : items.filter((item) => checks.every((check) => check(item)));
}

function checksFor(
  query: ParsedQuery,
  options: SearchRequestOptions,
  capabilities: ProviderCapabilities,
  nowMs: number,
): Check[] {
  const understands = (operator: ProviderCapabilities["queryOperators"][number]) =>
    capabilities.queryOperators.includes(operator);
  const checks: Check[] = [];

  const { includeDomains, excludeDomains } = options;
  if (includeDomains.length > 0 && !capabilities.includeDomains && !understands("site")) {
    checks.push((item) => hostMatchesAny(item.host, includeDomains));
  }
  if (excludeDomains.length > 0 && !capabilities.excludeDomains && !understands("-site")) {
    checks.push((item) => !hostMatchesAny(item.host, excludeDomains));
  }
  const { filetype } = query;
  if (filetype !== undefined && !understands("filetype")) {
    checks.push((item) => new URL(item.key).pathname.toLowerCase().endsWith(`.${filetype}`));
  }
  const inTitle = understands("intitle") ? [] : wordSequences(query.intitle);
  if (inTitle.length > 0) {
    checks.push((item) => containsAll(wordSequence(item.result.title), inTitle));
  }
  const phrases = understands("phrase") ? [] : wordSequences(query.phrases);
  if (phrases.length > 0) {
    checks.push((item) => containsAll(wordSequence(`${item.result.title} ${item.result.snippet}`), phrases));
  }

  const from = latest([
    understands("after") ? undefined : dayStart(query.after),
    options.timeRange && !capabilities.timeRange
      ? nowMs - TIME_RANGE_DAYS[options.timeRange] * DAY_MS
      : undefined,
  ]);
  const until = understands("before") ? undefined : dayStart(query.before);
  if (from !== undefined || until !== undefined) {
    checks.push((item) => publishedWithin(item.result.publishedAt, from, until));
  }
  return checks;
}

function publishedWithin(publishedAt: string | undefined, from?: number, until?: number): boolean {
  const published = publishedAt === undefined ? Number.NaN : Date.parse(publishedAt);
  if (Number.isNaN(published)) return true;
  return (from === undefined || published >= from) && (until === undefined || published < until);
}

/** Words joined by single spaces and padded, so `includes` matches whole-word sequences only. */
function wordSequence(text: string): string {
  return ` ${tokenize(text).join(" ")} `;
}

/** wordSequence of each value that has words at all (punctuation-only values constrain nothing). */
function wordSequences(values: readonly string[]): string[] {
  return values.map(wordSequence).filter((sequence) => sequence.trim() !== "");
}

function containsAll(haystack: string, needles: readonly string[]): boolean {
  return needles.every((needle) => haystack.includes(needle));
}

function dayStart(isoDay: string | undefined): number | undefined {
  return isoDay === undefined ? undefined : Date.parse(`${isoDay}T00:00:00Z`);
}

function latest(bounds: ReadonlyArray<number | undefined>): number | undefined {
  const defined = bounds.filter((bound): bound is number => bound !== undefined);
  return defined.length === 0 ? undefined : Math.max(...defined);
}
