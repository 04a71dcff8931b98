/**
 * Rebuilds query text for providers that understand search operators inside the query itself
 * (Google-backed Serper/SerpApi, Brave, DuckDuckGo, Kagi, ...). Operators a provider does not
 * understand are dropped (the engine post-filters), except `intitle:` words, which stay as plain
 * terms because they still describe what the user is looking for.
 * A provider with a documented length limit gets the text fitted to it (fitQueryText): the search input
 * takes more than most providers do, and a provider refuses (Brave: 422, Tavily: 400) what is longer.
 */
import type { ProviderCall, ProviderCapabilities } from "@/lib/engine/search/types";
import type { Fitted } from "./adapter-kit";

export type QueryOperator = ProviderCapabilities["queryOperators"][number];

type QueryCall = Pick<ProviderCall, "query" | "options">;

export function buildQueryText(call: QueryCall, supported: readonly QueryOperator[]): string {
  const { words, operators } = queryParts(call, supported);
  return joinWords([...words, ...operators]);
}

/** The free text (its words, a quoted phrase as one) and the operators, in the order they are sent. */
function queryParts(
  call: QueryCall,
  supported: readonly QueryOperator[],
): { words: string[]; operators: string[] } {
  const { query, options } = call;
  const has = (operator: QueryOperator) => supported.includes(operator);
  const text = [has("phrase") ? quotePhrases(query.terms, query.phrases) : query.terms];
  const operators: string[] = [];

  if (has("intitle")) operators.push(...query.intitle.map((word) => `intitle:${word}`));
  else text.push(...query.intitle);
  // Several site: operators are ANDed by search engines; OR keeps "any of these domains".
  if (has("site") && options.includeDomains.length > 0) {
    operators.push(options.includeDomains.map((domain) => `site:${domain}`).join(" OR "));
  }
  if (has("-site")) operators.push(...options.excludeDomains.map((domain) => `-site:${domain}`));
  if (has("filetype") && query.filetype) operators.push(`filetype:${query.filetype}`);
  if (has("after") && query.after) operators.push(`after:${query.after}`);
  if (has("before") && query.before) operators.push(`before:${query.before}`);

  return { words: textWords(text.join(" ")), operators };
}

/** A provider's documented limit on its query text. */
export interface QueryLimit {
  /** Its name, for the note. */
  provider: string;
  chars: number;
  words?: number;
}

/**
 * The query text within `limit`: whole as long as it fits; else the free text is cut at a word boundary (a
 * quoted phrase stays whole or goes) and the operators kept; when even they do not fit, the free text alone,
 * cut the same way. The note says what was left out.
 */
export function fitQueryText(
  call: QueryCall,
  supported: readonly QueryOperator[],
  limit: QueryLimit,
): Fitted<string> {
  const { words, operators } = queryParts(call, supported);
  return fitWords(words, operators, limit);
}

/** Plain text (an image search's query) within `limit`, cut at a word boundary. */
export function fitPlainQuery(text: string, limit: QueryLimit): Fitted<string> {
  return fitWords(textWords(text), [], limit);
}

function fitWords(words: readonly string[], operators: readonly string[], limit: QueryLimit): Fitted<string> {
  const fits = (parts: readonly string[]) => {
    const text = joinWords(parts);
    return text.length <= limit.chars && (limit.words === undefined || wordCount(text) <= limit.words);
  };
  const all = [...words, ...operators];
  if (fits(all)) return { value: joinWords(all) };
  const withOperators = longestFitting(words, (kept) => fits([...kept, ...operators]));
  if (withOperators.length > 0) return cutTo(withOperators, operators, limit, []);
  // The operators leave no room: the free text alone (or, without any, the operators that fit).
  const own = words.length > 0 ? words : operators;
  const alone = longestFitting(own, fits);
  // A single word longer than the whole limit: its start is all that can be sent.
  const kept = alone.length > 0 ? alone : [(own[0] ?? "").slice(0, limit.chars)];
  return cutTo(kept, [], limit, words.length > 0 ? operators : operators.slice(kept.length));
}

function cutTo(
  kept: readonly string[],
  operators: readonly string[],
  limit: QueryLimit,
  dropped: readonly string[],
): Fitted<string> {
  const value = joinWords([...kept, ...operators]);
  const within = `${limit.provider} takes at most ${limit.chars} characters${limit.words ? ` and ${limit.words} words` : ""}`;
  const left = dropped.length > 0 ? `; left out: ${joinWords(dropped)}` : "";
  return {
    value,
    note: `query cut to the ${value.length} characters ending "${tail(value)}" (${within})${left}`,
  };
}

/** The longest prefix of `words` that `fits`. */
function longestFitting(words: readonly string[], fits: (kept: readonly string[]) => boolean): string[] {
  for (let count = words.length; count > 0; count--) {
    const kept = words.slice(0, count);
    if (fits(kept)) return kept;
  }
  return [];
}

/** Where a cut query now ends, as the note quotes it: its last few words. */
function tail(text: string): string {
  const QUOTED = 40;
  return text.length <= QUOTED ? text : `…${text.slice(-QUOTED).replace(/^\S*\s/, "")}`;
}

/** Words as providers count them: runs of non-space; a quoted phrase is one unit of the text. */
function textWords(text: string): string[] {
  return text.match(/"[^"]*"|\S+/g) ?? [];
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

function joinWords(parts: readonly string[]): string {
  return parts
    .map((part) => part.trim())
    .filter(Boolean)
    .join(" ");
}

/** `terms` keeps phrases without quotes; quote them in place, or append them if they were not found. */
function quotePhrases(terms: string, phrases: readonly string[]): string {
  let text = terms;
  for (const phrase of phrases) {
    const quoted = `"${phrase}"`;
    const at = text.indexOf(phrase);
    text = at >= 0 ? text.slice(0, at) + quoted + text.slice(at + phrase.length) : `${text} ${quoted}`;
  }
  return text;
}
