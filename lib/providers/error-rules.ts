/**
 * What providers' own error answers mean where the generic mapping (lib/http/provider-client.ts: 401/403 bad
 * key, 402 quota, 400/422 invalid request, 429 rate limited) would mislead, each from the provider's own
 * material (checked 2026-12-01). Adapters pass their provider's rules with each request (`errorRules`).
 * Providers whose material documents nothing beyond the generic statuses have no entry: Exa's 402
 * (credits or key budget), Firecrawl's and Jina's 402, for instance, are quota by the generic rule.
 */
import type { ErrorRule } from "@/lib/http/provider-error";

/**
 * Tavily: 432 "Plan Limit Exceeded" and 433 "Pay-As-You-Go Limit Exceeded", body `{"detail": {"error": …}}`.
 * Sources: help.tavily.com/articles/8645538886-understanding-http-errors; tavily-ai/tavily-python
 * `tavily/tavily.py` `_handle_error_response` (403, 432 and 433 raise ForbiddenError, 429 UsageLimitExceeded).
 */
export const TAVILY_ERRORS: readonly ErrorRule[] = [
  { status: 432, reason: "quota_exhausted", says: "refused the call: the key's plan limit is used up" },
  { status: 433, reason: "quota_exhausted", says: "refused the call: the pay-as-you-go limit is reached" },
];

/**
 * Linkup: body `{"statusCode", "error": {"code", "message", "details"}}`; 402 PAYMENT_REQUIRED (the x402
 * payment the endpoint asks for), 429 INSUFFICIENT_FUNDS_CREDITS and EXCEED_BUDGET_LIMIT (credit and the key's
 * budget; plain TOO_MANY_REQUESTS stays a rate limit), 400 SEARCH_QUERY_NO_RESULT, 403 IP_NOT_WHITELISTED (this server's address is not on
 * the key's allow-list: the key itself is fine). Sources: docs.linkup.so/pages/documentation/platform/errors;
 * LinkupPlatform/linkup-python-sdk `src/linkup/_client.py` `_raise_linkup_error` and
 * `tests/unit/client_test.py` (the error bodies).
 */
export const LINKUP_ERRORS: readonly ErrorRule[] = [
  {
    status: 429,
    body: /"INSUFFICIENT_FUNDS_CREDITS"/,
    reason: "quota_exhausted",
    says: "refused the call: the account has no credits left",
  },
  {
    status: 429,
    body: /"EXCEED_BUDGET_LIMIT"/,
    reason: "quota_exhausted",
    says: "refused the call: the key's budget limit is reached",
  },
  {
    status: 402,
    reason: "quota_exhausted",
    says: "refused the call: payment required",
  },
  // A query without results is Linkup's answer, not our defect (what invalid_request would say).
  {
    status: 400,
    body: /"SEARCH_QUERY_NO_RESULT"/,
    reason: "http_error",
    says: "found no result for the query",
  },
  {
    status: 403,
    body: /"IP_NOT_WHITELISTED"/,
    reason: "blocked",
    says: "refused this server's IP address (not on the key's IP allow-list)",
  },
];

/**
 * SerpApi: 429 is either the hourly throughput limit or "your account has run out of searches"; the body's
 * `error` says which. Source: serpapi.com/api-status-and-error-codes.
 */
export const SERPAPI_ERRORS: readonly ErrorRule[] = [
  {
    status: 429,
    body: /run out of searches|searches for the month have run out/i,
    reason: "quota_exhausted",
    says: "refused the call: the account has run out of searches",
  },
];

/**
 * Scrapfly: errors carry a code (`result.error.code`, or the body's `code`); 429 ERR::THROTTLE::
 * MAX_API_CREDIT_BUDGET_EXCEEDED is the project's credit budget, ERR::ACCOUNT::SUSPENDED a suspended account;
 * the other 429s (request rate, concurrency) stay rate limits. Sources: scrapfly.io/docs/scrape-api/errors,
 * scrapfly.io/docs/scrape-api/error/ERR::THROTTLE::MAX_API_CREDIT_BUDGET_EXCEEDED and
 * scrapfly.io/docs/scrape-api/error/ERR::ACCOUNT::SUSPENDED.
 */
export const SCRAPFLY_ERRORS: readonly ErrorRule[] = [
  {
    status: 429,
    body: /ERR::THROTTLE::MAX_API_CREDIT_BUDGET_EXCEEDED/,
    reason: "quota_exhausted",
    says: "refused the call: the project's API credit budget is reached",
  },
  {
    status: 429,
    body: /ERR::ACCOUNT::SUSPENDED/,
    reason: "quota_exhausted",
    says: "refused the call: the account is suspended",
  },
];

/**
 * Exa: 403 is a valid key without the permission or plan feature, or content blocked by policy (robots.txt,
 * moderation), never a rejected key (401 is that). Source: exa.ai/docs/reference/error-codes.
 */
export const EXA_ERRORS: readonly ErrorRule[] = [
  {
    status: 403,
    reason: "blocked",
    says: "refused the request (a feature the key's plan lacks, or content blocked by policy)",
  },
];

/**
 * OpenAlex: 403 is its per-second rate limit ("Rate limit exceeded; slow down"), 429 the day's allowance used
 * up ("Daily limit exceeded"; $1 a day with a free key, $0.01 without). Sources:
 * developers.openalex.org/api-reference/errors and developers.openalex.org/api-reference/authentication.
 */
export const OPENALEX_ERRORS: readonly ErrorRule[] = [
  { status: 403, reason: "rate_limited", says: "rate limited (its per-second limit)" },
  { status: 429, reason: "quota_exhausted", says: "refused the call: the day's allowance is used up" },
];

/**
 * GitHub: a 403 (as a 429) whose message names a rate limit is its primary or secondary rate limit, not a
 * refused token ("API rate limit exceeded", "You have exceeded a secondary rate limit"). Source:
 * docs.github.com/en/rest/using-the-rest-api/rate-limits-for-the-rest-api ("Exceeding the rate limit").
 */
export const GITHUB_ERRORS: readonly ErrorRule[] = [
  { status: 403, body: /rate limit/i, reason: "rate_limited", says: "rate limited" },
];

/**
 * OpenAI-compatible chat completions (the operator's model, Perplexity): a 429 whose error type is
 * `insufficient_quota` ("You exceeded your current quota, please check your plan and billing details") is
 * the account's credit, not a rate limit. Source: developers.openai.com/docs/guides/error-codes.
 */
export const CHAT_COMPLETIONS_ERRORS: readonly ErrorRule[] = [
  {
    status: 429,
    body: /insufficient_quota/,
    reason: "quota_exhausted",
    says: "refused the call: the account's quota or credit is used up",
  },
];
