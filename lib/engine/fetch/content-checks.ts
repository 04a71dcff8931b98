/**
 * The failover rules, in one place: whether a fetched page is the content or something standing in
 * its way. A rejected page sends the waterfall to the next step with the verdict as the reason.
 *
 * Phrase rules only apply to short pages: a bot challenge, login, cookie or paywall interstitial is a
 * few hundred characters, while an article that merely talks about captchas or paywalls is long.
 */
import { markdownToText } from "./extract/markdown";
import type { FetchedDocument, FetchFailureReason } from "./types";

/** Pages with less visible text than this are "too short" (a soft failure: kept as a last resort). */
const MIN_CONTENT_CHARS = 200;
/** Interstitials are short; longer pages are never judged by phrases. */
const INTERSTITIAL_MAX_CHARS = 2_000;
/** Paywalled articles often show a teaser of a few paragraphs. */
const PAYWALL_MAX_CHARS = 4_000;

export interface Verdict {
  reason: Extract<
    FetchFailureReason,
    "bot_challenge" | "login_wall" | "cookie_wall" | "paywall" | "js_shell" | "too_short"
  >;
  message: string;
}

interface PhraseRule {
  reason: Verdict["reason"];
  pattern: RegExp;
  maxChars: number;
  label: string;
}

const TITLE_CHALLENGE =
  /^(just a moment|attention required|access denied|security check|are you a robot|verify(ing)? you are (a )?human|one more step|please wait|ddos-guard|pardon our interruption|bot verification)\b/i;

const PHRASE_RULES: readonly PhraseRule[] = [
  {
    reason: "bot_challenge",
    label: "bot challenge",
    maxChars: INTERSTITIAL_MAX_CHARS,
    pattern:
      /checking (if the site connection is secure|your browser)|enable javascript and cookies to continue|verify (that )?you are (a )?human|complete the (security check|captcha)|are you a robot|press (&|and) hold|unusual traffic from your computer|why have i been blocked|you don'?t have permission to access .{0,80} on this server|request unsuccessful\. incapsula|ddos protection by|bots use duckduckgo too|captcha-delivery|cf-chl|please solve (the|this) captcha/i,
  },
  {
    reason: "login_wall",
    label: "login wall",
    maxChars: INTERSTITIAL_MAX_CHARS,
    pattern:
      /(sign|log) ?in to (continue|view|see|read|access)|you (must|need to) (be )?(logged|signed) in|please (sign|log) ?in( to)?\b|login required|create (a free )?account to (continue|read|view)|join now to (see|view|read)/i,
  },
  {
    reason: "cookie_wall",
    label: "cookie wall",
    maxChars: INTERSTITIAL_MAX_CHARS,
    pattern:
      /before you continue to \w+|we (and our partners )?use cookies.{0,200}(accept|agree|consent)|accept (all )?cookies to (continue|view|access)|cookie consent required/i,
  },
  {
    reason: "paywall",
    label: "paywall",
    maxChars: PAYWALL_MAX_CHARS,
    pattern:
      /subscribe (now )?to (continue|keep) reading|(this|the) (article|story|content) is (only )?(available|reserved) (to|for) (subscribers|members)|to continue reading,? (please )?(subscribe|log in|sign in)|already a subscriber\?|subscribers only|become a (member|subscriber) to read/i,
  },
  {
    reason: "js_shell",
    label: "JavaScript-only page",
    maxChars: INTERSTITIAL_MAX_CHARS,
    pattern:
      /you need to enable javascript to run this app|(please )?enable javascript to (continue|view|use)|this (site|page|app) requires javascript|javascript is (required|disabled)/i,
  },
];

/** Every rule reads the text only up to this many characters; past it a page is simply long. */
const LONGEST_RULE_CHARS = Math.max(PAYWALL_MAX_CHARS, INTERSTITIAL_MAX_CHARS, MIN_CONTENT_CHARS);
/** How much Markdown is converted before deciding that a page is long (text is at most as long). */
const PREFIX_CHARS = 4 * LONGEST_RULE_CHARS;

/** The verdict on a fetched page, or undefined when it is usable content. */
export function checkContent(document: FetchedDocument): Verdict | undefined {
  const text = checkedText(document.markdown);
  const chars = text.length;
  const title = document.title ?? document.metadata.title ?? "";
  if (chars < INTERSTITIAL_MAX_CHARS && TITLE_CHALLENGE.test(title.trim())) {
    return { reason: "bot_challenge", message: `bot challenge page ("${title.trim().slice(0, 60)}")` };
  }
  const haystack = `${title}\n${text}`;
  for (const rule of PHRASE_RULES) {
    if (chars > rule.maxChars) continue;
    const match = rule.pattern.exec(haystack);
    if (match) return { reason: rule.reason, message: `${rule.label} ("${match[0].slice(0, 60)}")` };
  }
  const { signals } = document;
  if (signals?.emptyAppRoot && signals.scripts > 0 && chars < MIN_CONTENT_CHARS) {
    return {
      reason: "js_shell",
      message: "JavaScript-only page (empty app root, content rendered by scripts)",
    };
  }
  if (chars < MIN_CONTENT_CHARS) {
    return {
      reason: "too_short",
      message: `only ${chars} characters of text (minimum ${MIN_CONTENT_CHARS})`,
    };
  }
  return undefined;
}

/**
 * The page's plain text, or on a long page the text of its first paragraphs once that alone is past
 * every rule's limit: converting a 500 KB page in full cost a tenth of a fetch. The conversion only
 * shortens Markdown, and line by line except for links, so the whole text is at least the prefix's text
 * minus the few characters a construct cut short at the end of the prefix keeps; the margin is ample.
 */
function checkedText(markdown: string): string {
  if (markdown.length > PREFIX_CHARS) {
    const cut = markdown.lastIndexOf("\n\n", PREFIX_CHARS);
    const prefix = markdownToText(markdown.slice(0, cut > 0 ? cut : PREFIX_CHARS));
    if (prefix.length > 2 * LONGEST_RULE_CHARS) return prefix;
  }
  return markdownToText(markdown);
}
