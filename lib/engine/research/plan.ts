/**
 * The research job's sub-queries: the question itself first, then the model's plan when a model is
 * configured and answers usefully, else plain variants of the question's keywords. The model's reply is
 * parsed defensively (a JSON array, else one query per line); a reply with no usable query, a refused
 * admission or a failed call falls back to the variants and reports why.
 */
import type { SnippetPrompt } from "@/lib/engine/grounding/prompt";
import { collapseWhitespace } from "@/lib/engine/search/text";
import type { ProviderFailure } from "@/lib/engine/shared/types";
import { callModel, type ModelSpan, unusable } from "./call-model";
import { questionTerms } from "./terms";
import type { ResearchModel } from "./types";

/** Longer lines are prose, not queries. */
const MAX_QUERY_CHARS = 200;
const MAX_QUERY_WORDS = 32;

/** Deterministic reformulations of the keywords, in the order they are used. */
const VARIANT_SUFFIXES = ["overview", "explained", "latest", "examples", "comparison", "research"];

export interface QueryPlan {
  queries: string[];
  planner: "model" | "variants";
  span?: ModelSpan;
  failure?: ProviderFailure;
}

export async function planQueries(args: {
  question: string;
  count: number;
  model?: ResearchModel;
  deadline: AbortSignal;
  origin: number;
}): Promise<QueryPlan> {
  const { question, count, model } = args;
  const variants = (): string[] => queryVariants(question, count);
  // One query is the question itself: nothing to plan.
  if (model === undefined || count <= 1) return { queries: variants(), planner: "variants" };

  const outcome = await callModel(model, planPrompt(question, count - 1), args);
  if (!outcome.ok) {
    return { queries: variants(), planner: "variants", span: outcome.span, failure: outcome.failure };
  }
  const queries = distinct([question, ...parsePlan(outcome.text)], count);
  if (queries.length <= 1) {
    return {
      queries: variants(),
      planner: "variants",
      ...unusable(outcome, "the model's plan had no usable query"),
    };
  }
  return { queries, planner: "model", span: outcome.span };
}

/** The question, its keywords and reformulations of them: distinct (case-insensitive), at most `count`. */
export function queryVariants(question: string, count: number): string[] {
  const keywords = questionTerms(question).join(" ");
  const reformulations =
    keywords === "" ? [] : [keywords, ...VARIANT_SUFFIXES.map((s) => `${keywords} ${s}`)];
  return distinct([question, ...reformulations], count);
}

function planPrompt(question: string, extra: number): SnippetPrompt {
  return {
    system: [
      "You plan the web searches for a research question.",
      `Write ${extra} distinct search queries that together cover the question from different angles: its`,
      "key terms, sub-topics, evidence and data, comparisons, recent developments.",
      "Each query is short (at most 12 words), in the question's language, as a person would type it into a",
      'search engine. Reply with only a JSON array of strings, e.g. ["first query", "second query"].',
    ].join(" "),
    user: `Research question: ${collapseWhitespace(question)}`,
  };
}

/** Queries from a model's reply: the first JSON array of strings, else its lines; list markers removed. */
export function parsePlan(reply: string): string[] {
  const lines = jsonStrings(reply) ?? reply.split("\n");
  return lines.map(cleanQuery).filter(isQueryLike);
}

function jsonStrings(reply: string): string[] | undefined {
  const start = reply.indexOf("[");
  const end = reply.lastIndexOf("]");
  if (start === -1 || end <= start) return undefined;
  try {
    const value: unknown = JSON.parse(reply.slice(start, end + 1));
    if (!Array.isArray(value)) return undefined;
    return value.filter((item): item is string => typeof item === "string");
  } catch {
    return undefined;
  }
}

function cleanQuery(line: string): string {
  return collapseWhitespace(line)
    .replace(/^(?:\d+[.)]|[-*•])\s+/, "")
    .replace(/^["'`“]+|["'`”,]+$/g, "")
    .trim();
}

/** A search a person would type: not empty, not prose, not a preamble ("Here are the queries:"), not markup. */
function isQueryLike(query: string): boolean {
  return (
    /[\p{L}\p{N}]/u.test(query) &&
    query.length <= MAX_QUERY_CHARS &&
    query.split(" ").length <= MAX_QUERY_WORDS &&
    !query.endsWith(":") &&
    !/^[{[<]/.test(query)
  );
}

/** Non-empty queries, whitespace collapsed, the first of each case-insensitive spelling, at most `count`. */
function distinct(queries: readonly string[], count: number): string[] {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const raw of queries) {
    if (kept.length >= count) break;
    const query = collapseWhitespace(raw);
    const key = query.toLowerCase();
    if (query === "" || seen.has(key)) continue;
    seen.add(key);
    kept.push(query);
  }
  return kept;
}
