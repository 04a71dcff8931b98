/**
 * Whether a model's reply says the page had nothing usable. The prompt asks for exactly NO_CONTENT, but
 * models paraphrase ("The page appears to be a login screen."), so short replies are also judged by
 * phrases; a long reply is a snippet even when it mentions a paywall in passing.
 */
export const NO_CONTENT = "NO_CONTENT";

/** Replies longer than this are snippets, whatever phrases they contain. */
const PHRASE_MAX_CHARS = 300;

const MARKER = /^\W*no[\s_-]?content\b/i;

const PHRASES: readonly RegExp[] = [
  /\bno (usable|useful|meaningful|relevant|readable|actual|substantive) (content|information|text)\b/i,
  /\b(does not|doesn't|did not|didn't) (contain|include|provide|have|offer) (any )?(usable|useful|meaningful|readable|actual|substantive|article|page) (content|information|text)\b/i,
  /\b(i|we) (cannot|can't|could not|couldn't|am unable to|was unable to) (access|read|see|view|extract|load)\b/i,
  /\b(page|content|text|site|article)( itself)? (is|appears to be|seems to be|consists of|contains only|shows only) (just |only )?(a |an )?(login|log-in|sign[- ]in|error|paywall|paywalled|subscription|cookie|consent|captcha|bot|security|access denied|empty|blank|javascript|404|403)/i,
  /\bbehind a (paywall|login|sign[- ]in)\b/i,
  /\bnothing (usable|useful|relevant|readable) (to|on|in)\b/i,
  /\b(content|page|article) is (not available|unavailable|inaccessible|missing)\b/i,
];

export function saysNoContent(reply: string): boolean {
  const text = reply.trim();
  if (text === "" || MARKER.test(text)) return true;
  return text.length <= PHRASE_MAX_CHARS && PHRASES.some((phrase) => phrase.test(text));
}
