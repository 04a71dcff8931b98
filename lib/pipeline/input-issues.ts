/**
 * Schema issues in words for people ("max_results: must be at most 50", "mode: must be one of fanout,
 * budget, single", "unknown field \"colour\""), instead of zod's ("Too big: expected number to be <=50").
 *
 * `issueMessage` is installed as zod's error map for the whole process: every schema check reads the same
 * way wherever it is reported — a verb's invalid_input (REST, the dashboard, the CLI) and MCP's SDK, which
 * checks a tool's arguments with the verb's schema before the verb runs and passes the issues' messages on.
 * A message a schema writes itself (`.refine(…, "…")`) is kept.
 */
import { z } from "zod";
import { ServiceError } from "./errors";

type RawIssue = z.core.$ZodRawIssue;

/** At most this many issues are spelled out in one message; the details list them all. */
const MESSAGE_ISSUES = 5;

const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  bigint: "a whole number",
  boolean: "true or false",
  array: "a list",
  object: "an object",
  date: "a date",
  null: "null",
};

const FORMAT_NAMES: Readonly<Record<string, string>> = {
  url: "a URL",
  email: "an email address",
  uuid: "a UUID",
  guid: "a UUID",
  datetime: "an ISO 8601 date-time (e.g. 2026-01-31T12:00:00Z)",
  date: "a date (YYYY-MM-DD)",
  time: "a time (HH:MM[:SS])",
  ipv4: "an IPv4 address",
  ipv6: "an IPv6 address",
};

/** What a value is, in the words of the messages above. */
function typeOf(input: unknown): string {
  if (input === null) return "null";
  if (Array.isArray(input)) return "a list";
  if (Number.isNaN(input)) return "NaN";
  return TYPE_NAMES[typeof input] ?? typeof input;
}

const listed = (values: readonly unknown[]) =>
  values.map((value) => (typeof value === "string" ? value : JSON.stringify(value))).join(", ");

const count = (n: number | bigint, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function sizeBound(origin: string, bound: number | bigint, comparison: "at least" | "at most" | "exactly") {
  if (origin === "string") return `must be ${comparison} ${count(bound, "character", "characters")} long`;
  if (origin === "array" || origin === "set")
    return `must have ${comparison} ${count(bound, "item", "items")}`;
  if (origin === "file") return `must be ${comparison} ${count(bound, "byte", "bytes")}`;
  return undefined;
}

function tooSmall(issue: Extract<RawIssue, { code: "too_small" }>): string | undefined {
  const { origin, minimum, inclusive, exact } = issue;
  const isSize = origin === "string" || origin === "array" || origin === "set";
  if (isSize && minimum === 1 && !exact) return "must not be empty";
  if (origin === "date") return `must be on or after ${new Date(Number(minimum)).toISOString()}`;
  const size = sizeBound(origin, minimum, exact ? "exactly" : "at least");
  if (size) return size;
  return inclusive === false ? `must be greater than ${minimum}` : `must be at least ${minimum}`;
}

function tooBig(issue: Extract<RawIssue, { code: "too_big" }>): string | undefined {
  const { origin, maximum, inclusive, exact } = issue;
  if (origin === "date") return `must be on or before ${new Date(Number(maximum)).toISOString()}`;
  const size = sizeBound(origin, maximum, exact ? "exactly" : "at most");
  if (size) return size;
  return inclusive === false ? `must be less than ${maximum}` : `must be at most ${maximum}`;
}

function invalidFormat(issue: Extract<RawIssue, { code: "invalid_format" }>): string {
  const { format } = issue;
  const prefix = "prefix" in issue ? String(issue.prefix) : undefined;
  const suffix = "suffix" in issue ? String(issue.suffix) : undefined;
  const includes = "includes" in issue ? String(issue.includes) : undefined;
  if (format === "starts_with" && prefix !== undefined) return `must start with "${prefix}"`;
  if (format === "ends_with" && suffix !== undefined) return `must end with "${suffix}"`;
  if (format === "includes" && includes !== undefined) return `must contain "${includes}"`;
  const name = FORMAT_NAMES[format];
  return name ? `must be ${name}` : "is not in the expected format";
}

function unknownFields(issue: Extract<RawIssue, { code: "unrecognized_keys" }>): string {
  const names = issue.keys.map((key) => `"${key}"`).join(", ");
  const known = issue.inst instanceof z.ZodObject ? Object.keys(issue.inst.shape) : [];
  const head = issue.keys.length === 1 ? `unknown field ${names}` : `unknown fields ${names}`;
  return known.length > 0 ? `${head} (known: ${known.join(", ")})` : head;
}

/** One issue in words for people, without its path; undefined leaves zod's own message. */
function issueMessage(issue: RawIssue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "is required";
      if (issue.expected === "int" && typeof issue.input === "number") return "must be a whole number";
      return `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}, not ${typeOf(issue.input)}`;
    case "too_small":
      return tooSmall(issue);
    case "too_big":
      return tooBig(issue);
    case "invalid_value":
      return issue.values.length === 1
        ? `must be ${listed(issue.values)}`
        : `must be one of ${listed(issue.values)}`;
    case "invalid_format":
      return invalidFormat(issue);
    case "not_multiple_of":
      return `must be a multiple of ${issue.divisor}`;
    case "unrecognized_keys":
      return unknownFields(issue);
    case "invalid_union":
      return "matches none of the accepted forms";
    case "invalid_key":
      return "has an invalid key";
    case "invalid_element":
      return "has an invalid entry";
    case "custom":
      return "is not valid";
    default:
      return undefined;
  }
}

z.config({ customError: issueMessage });

/** A path as people write it: `providers[2]`, `defaults.region`. */
function fieldName(path: readonly PropertyKey[]): string {
  return path
    .map((key, i) => (typeof key === "number" ? `[${key}]` : `${i === 0 ? "" : "."}${String(key)}`))
    .join("");
}

/** The issues as one sentence: each field with what is wrong with it. */
function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const described = issues
    .slice(0, MESSAGE_ISSUES)
    .map((issue) => (issue.path.length === 0 ? issue.message : `${fieldName(issue.path)}: ${issue.message}`));
  const more = issues.length - described.length;
  return more > 0
    ? `${described.join("; ")}; and ${count(more, "more issue", "more issues")}`
    : described.join("; ");
}

/** The invalid_input error of schema issues: their description, and each issue as a detail. */
export function invalidInputError(issues: readonly z.core.$ZodIssue[]): ServiceError {
  const details = issues.map((issue) => ({ path: issue.path.join("."), message: issue.message }));
  return new ServiceError("invalid_input", describeIssues(issues), details);
}
