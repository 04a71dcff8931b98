/**
 * What a provider's rate-limit headers say about the key that made the call, in the forms providers
 * document them:
 * - Brave (api-dashboard.search.brave.com/documentation/guides/rate-limiting): `X-RateLimit-Limit: 1, 15000`,
 *   `X-RateLimit-Policy: 1;w=1, 15000;w=2592000`, `X-RateLimit-Remaining: 0, 1000`, `X-RateLimit-Reset: 1,
 *   1419704` — one entry per window (a second, a month), resets in seconds from now;
 * - the IETF draft's `RateLimit-Remaining`, `RateLimit-Reset` (seconds) and `RateLimit-Policy` (`q;w=s`);
 * - You.com: `X-RateLimit-Remaining` and `X-RateLimit-Reset` as a Unix timestamp (a reset past 10⁹ seconds
 *   is read as one: no window lasts 30 years).
 */

export interface RateLimitHint {
  /** Seconds until the key may call again: the latest reset among the windows with nothing left. */
  retryAfter?: number;
  /** Requests the key may make per second, when a policy names a one-second window (Brave's `1;w=1`). */
  perSecond?: number;
}

type HeaderValue = string | string[] | undefined;
type Headers = Record<string, HeaderValue>;

/** A Unix time, not a number of seconds: later than 2001-09-09. */
const EPOCH_SECONDS_FLOOR = 1_000_000_000;

const first = (headers: Headers, ...names: string[]): string | undefined => {
  for (const name of names) {
    const value = headers[name];
    const text = Array.isArray(value) ? value[0] : value;
    if (text !== undefined && text.trim() !== "") return text;
  }
  return undefined;
};

/** "0, 1000" → [0, 1000]; entries that are not numbers are NaN, keeping the windows' positions. */
const numbers = (value: string | undefined): number[] =>
  value === undefined ? [] : value.split(",").map((part) => Number(part.trim()));

/** The reset of a window in seconds from now: delta seconds, or a Unix time. */
function secondsUntil(reset: number, nowMs: number): number {
  return reset >= EPOCH_SECONDS_FLOOR ? Math.max(0, Math.ceil(reset - nowMs / 1000)) : Math.ceil(reset);
}

/** The quota of the policy entry whose window is one second (`1;w=1`), if any. */
function perSecondQuota(policy: string | undefined): number | undefined {
  for (const entry of policy?.split(",") ?? []) {
    const [quota, ...params] = entry.split(";").map((part) => part.trim());
    const window = params.find((param) => param.startsWith("w="))?.slice(2);
    const requests = Number(quota);
    if (window === "1" && Number.isInteger(requests) && requests > 0) return requests;
  }
  return undefined;
}

/** The hint from a response's headers (lowercased names, as undici gives them); undefined when they say nothing. */
export function rateLimitHint(headers: Headers, nowMs: number = Date.now()): RateLimitHint | undefined {
  const remaining = numbers(first(headers, "x-ratelimit-remaining", "ratelimit-remaining"));
  const resets = numbers(first(headers, "x-ratelimit-reset", "ratelimit-reset"));
  const spent = remaining.flatMap((left, i) => {
    const reset = resets[i];
    return left === 0 && reset !== undefined && Number.isFinite(reset) && reset >= 0
      ? [secondsUntil(reset, nowMs)]
      : [];
  });
  const hint: RateLimitHint = {};
  if (spent.length > 0) hint.retryAfter = Math.max(...spent);
  const perSecond = perSecondQuota(first(headers, "x-ratelimit-policy", "ratelimit-policy"));
  if (perSecond !== undefined) hint.perSecond = perSecond;
  return Object.keys(hint).length > 0 ? hint : undefined;
}
