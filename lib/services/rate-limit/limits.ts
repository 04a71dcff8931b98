/**
 * The product's rate limits, on top of the sliding window: per API token (tenant override, else
 * SEARCHMUX_RATE_LIMIT_RPM, else 120 a minute) and, separately, failed authentications per client IP.
 */
import type { Env, Platform } from "../context";
import type { VerifiedToken } from "../tokens/verify-token";
import { type RateLimitDecision, slidingWindow } from "./sliding-window";

export const DEFAULT_RATE_LIMIT_RPM = 120;
/** Failed authentications a client IP may make per minute before it is refused outright. */
export const FAILED_AUTH_PER_MINUTE = 20;

export function operatorRateLimit(env: Env): number {
  const configured = Number(env.SEARCHMUX_RATE_LIMIT_RPM);
  return Number.isInteger(configured) && configured > 0 ? configured : DEFAULT_RATE_LIMIT_RPM;
}

export function limitToken(ctx: Platform, token: VerifiedToken): Promise<RateLimitDecision> {
  const limit = token.rateLimitRpm ?? operatorRateLimit(ctx.env);
  return slidingWindow(ctx.kv, `token:${token.tokenId}`, limit, 60, ctx.now().getTime());
}

/** Counts one failed authentication from `ip`; refused once the IP exceeds the limit. */
export function countFailedAuth(ctx: Platform, ip: string): Promise<RateLimitDecision> {
  return slidingWindow(ctx.kv, `auth-fail:${ip}`, FAILED_AUTH_PER_MINUTE, 60, ctx.now().getTime());
}

/** Whether `ip` is currently refused for failed authentications, without counting an attempt. */
export async function failedAuthBlocked(ctx: Platform, ip: string): Promise<boolean> {
  const next = await slidingWindow(
    ctx.kv,
    `auth-fail:${ip}`,
    FAILED_AUTH_PER_MINUTE,
    60,
    ctx.now().getTime(),
    { peek: true },
  );
  return !next.ok;
}
