/**
 * The product's rate limits, on top of the sliding window: per API token (tenant override, else
 * SEARCHMUX_RATE_LIMIT_RPM, else 120 a minute) and, separately, failed authentications per client address.
 */
import { tenantLimits } from "@/lib/config";
import type { Env, Platform } from "@/lib/services/context";
import type { VerifiedToken } from "@/lib/services/tokens/verify-token";
import { type RateLimitDecision, slidingWindow } from "./sliding-window";

export const DEFAULT_RATE_LIMIT_RPM = 120;
/** Failed authentications a client address may make per minute before its unknown tokens are refused. */
export const FAILED_AUTH_PER_MINUTE = 20;

export function operatorRateLimit(env: Env): number {
  const configured = Number(env.SEARCHMUX_RATE_LIMIT_RPM);
  return Number.isInteger(configured) && configured > 0 ? configured : DEFAULT_RATE_LIMIT_RPM;
}

/** The highest override a tenant may have: SEARCHMUX_RATE_LIMIT_MAX_RPM, never below the operator default. */
export function maxTenantRateLimit(env: Env): number {
  return Math.max(tenantLimits(env).maxRateLimitRpm, operatorRateLimit(env));
}

export function limitToken(ctx: Platform, token: VerifiedToken): Promise<RateLimitDecision> {
  // Clamped here too: overrides stored before the ceiling (or a lower one) existed.
  const limit =
    token.rateLimitRpm === null
      ? operatorRateLimit(ctx.env)
      : Math.min(token.rateLimitRpm, maxTenantRateLimit(ctx.env));
  return slidingWindow(ctx.kv, `token:${token.tokenId}`, limit, 60, ctx.now().getTime());
}

/**
 * Counts one failed authentication from `address` (a client address from trusted proxies); the
 * decision says whether the address is now over the limit.
 */
export function countFailedAuth(ctx: Platform, address: string): Promise<RateLimitDecision> {
  return slidingWindow(ctx.kv, `auth-fail:${address}`, FAILED_AUTH_PER_MINUTE, 60, ctx.now().getTime());
}

/**
 * Whether one more failure from `address` would be within the limit, without counting anything: while
 * it would not, tokens not known to be valid are refused without asking the database.
 */
export function peekFailedAuth(ctx: Platform, address: string): Promise<RateLimitDecision> {
  return slidingWindow(ctx.kv, `auth-fail:${address}`, FAILED_AUTH_PER_MINUTE, 60, ctx.now().getTime(), {
    peek: true,
  });
}
