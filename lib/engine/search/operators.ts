/**
 * Search operators in the query text: site:, -site:, filetype: (alias ext:), intitle:, "phrase",
 * before:, after:. One left-to-right pass, linear in the input length.
 *
 * Tolerance rules:
 * - an operator is recognised only at the start of a word, its name case-insensitively;
 * - an operator whose value is empty or invalid (`site:`, `before:someday`) stays as plain text;
 * - `intitle:"two words"` and `site:"example.com"` take a quoted value;
 * - a quote without a closing partner is dropped and the rest is read as plain words; stray quotes
 *   inside words are dropped too, so no provider sees half a phrase;
 * - curly quotes count as straight quotes;
 * - filetype is single-valued: the first valid one wins, later ones are dropped.
 * Dates: YYYY-MM-DD, or YYYY-MM / YYYY meaning the first day of that month / year.
 */
import { normalizeDomain } from "./domains";
import { collapseWhitespace } from "./text";
import type { ParsedQuery } from "./types";

const OPERATOR_AT = /(-site|site|filetype|ext|intitle|before|after):/iy;
const WHITESPACE = /\s/;
const DATE_VALUE = /^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?$/;
const FILETYPE_VALUE = /^\.?([a-z0-9]{1,10})$/;

interface Word {
  text: string;
  end: number;
}

export function parseQuery(raw: string): ParsedQuery {
  const text = raw.replace(/[\u201C\u201D\u201E\u00AB\u00BB]/g, '"');
  const parsed: ParsedQuery = { raw, terms: "", phrases: [], sites: [], excludeSites: [], intitle: [] };
  const terms: string[] = [];

  let i = 0;
  while (i < text.length) {
    if (WHITESPACE.test(text.charAt(i))) {
      i++;
      continue;
    }
    if (text.charAt(i) === '"') {
      const close = text.indexOf('"', i + 1);
      if (close === -1) {
        i++; // unbalanced: drop the quote, read on as plain words
        continue;
      }
      const phrase = collapseWhitespace(text.slice(i + 1, close));
      if (phrase !== "") {
        addUnique(parsed.phrases, phrase);
        terms.push(phrase);
      }
      i = close + 1;
      continue;
    }
    OPERATOR_AT.lastIndex = i;
    const operator = OPERATOR_AT.exec(text);
    if (operator?.[1]) {
      const value = readValue(text, OPERATOR_AT.lastIndex);
      if (!applyOperator(parsed, operator[1].toLowerCase(), value.text)) {
        terms.push(plainWord(text.slice(i, value.end)));
      }
      i = value.end;
      continue;
    }
    const word = readWord(text, i);
    const plain = plainWord(word.text);
    if (plain !== "") terms.push(plain);
    i = word.end;
  }

  parsed.terms = collapseWhitespace(terms.join(" "));
  return parsed;
}

/** Applies one operator; false when its value is not valid for it (the caller keeps it as text). */
function applyOperator(parsed: ParsedQuery, name: string, value: string): boolean {
  switch (name) {
    case "site":
    case "-site": {
      const domain = normalizeDomain(value);
      if (domain === null) return false;
      addUnique(name === "site" ? parsed.sites : parsed.excludeSites, domain);
      return true;
    }
    case "filetype":
    case "ext": {
      const match = FILETYPE_VALUE.exec(value.toLowerCase());
      if (!match?.[1]) return false;
      parsed.filetype ??= match[1];
      return true;
    }
    case "intitle": {
      const words = collapseWhitespace(value);
      if (words === "") return false;
      addUnique(parsed.intitle, words);
      return true;
    }
    case "before":
    case "after": {
      const date = normalizeDate(value);
      if (date === null) return false;
      parsed[name] = date;
      return true;
    }
    default:
      return false;
  }
}

/** An operator value: a quoted string when it starts with a quote that closes, else one word. */
function readValue(text: string, start: number): Word {
  if (text.charAt(start) === '"') {
    const close = text.indexOf('"', start + 1);
    if (close !== -1) return { text: text.slice(start + 1, close), end: close + 1 };
  }
  return readWord(text, start);
}

function readWord(text: string, start: number): Word {
  let end = start;
  while (end < text.length && !WHITESPACE.test(text.charAt(end))) end++;
  return { text: text.slice(start, end), end };
}

function plainWord(word: string): string {
  return collapseWhitespace(word.replace(/"/g, " "));
}

function normalizeDate(value: string): string | null {
  const match = DATE_VALUE.exec(value.trim());
  if (!match?.[1]) return null;
  const year = Number(match[1]);
  const month = match[2] === undefined ? 1 : Number(match[2]);
  const day = match[3] === undefined ? 1 : Number(match[3]);
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls 2024-02-31 over into March; a round trip catches impossible dates.
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return null;
  }
  return `${match[1]}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

function addUnique(list: string[], value: string): void {
  if (!list.includes(value)) list.push(value);
}
