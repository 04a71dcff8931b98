/**
 * The product's rate limits, on top of the sliding window: per API token and per signed-in user of the
 * playground (tenant override, else SEARCHMUX_RATE_LIMIT_RPM, else 120 a minute) and, separately, failed
 * authentications per client address.
 */
import { eq } from "drizzle-orm";
import { tenantLimits } from "@/lib/config";
import { tenants } from "@/lib/db/schema";
import type { Env } from "@/lib/pipeline/capabilities";
import type { Platform, TenantContext } from "@/lib/pipeline/context";
import { type RateLimitDecision, slidingWindow, type WindowCheck, windowCheck } from "./sliding-window";

export const DEFAULT_RATE_LIMIT_RPM = 120;
/** Failed authentications a client address may make per minute before its unknown tokens are refused. */
export const FAILED_AUTH_PER_MINUTE = 20;

function operatorRateLimit(env: Env): number {
  const configured = Number(env.SEARCHMUX_RATE_LIMIT_RPM);
  return Number.isInteger(configured) && configured > 0 ? configured : DEFAULT_RATE_LIMIT_RPM;
}

/** The highest override a tenant may have: SEARCHMUX_RATE_LIMIT_MAX_RPM, never below the operator default. */
export function maxTenantRateLimit(env: Env): number {
  return Math.max(tenantLimits(env).maxRateLimitRpm, operatorRateLimit(env));
}

/** A caller's requests per minute: the tenant's override, else the operator default. */
function callerLimit(env: Env, tenantOverride: number | null): number {
  // Clamped here too: overrides stored before the ceiling (or a lower one) existed.
  return tenantOverride === null ? operatorRateLimit(env) : Math.min(tenantOverride, maxTenantRateLimit(env));
}

/** What the per-token limit reads of a verified token. */
export interface LimitedToken {
  tokenId: string;
  /** The tenant's per-token override (requests per minute), if any. */
  rateLimitRpm: number | null;
}

/** A token's requests per minute. */
export const tokenRateLimit = (env: Env, token: LimitedToken) => callerLimit(env, token.rateLimitRpm);

/**
 * One call of a token counted in its window, to queue beside the token check (one KV round trip for
 * both) and decide with tokenRateLimit once the token is known.
 */
export const tokenWindow = (ctx: Platform, tokenId: string): WindowCheck =>
  windowCheck(`token:${tokenId}`, 60, ctx.now().getTime());

export function limitToken(ctx: Platform, token: LimitedToken): Promise<RateLimitDecision> {
  return slidingWindow(
    ctx.kv,
    `token:${token.tokenId}`,
    tokenRateLimit(ctx.env, token),
    60,
    ctx.now().getTime(),
  );
}

/**
 * The same limit for a signed-in user's own calls (the playground), per user and workspace: those calls
 * spend the same providers and budgets as a token's, so a user is held to what one token may do.
 */
export async function limitSignedInUser(ctx: TenantContext, userId: string): Promise<RateLimitDecision> {
  const [tenant] = await ctx.db.withTenant(ctx.tenantId, (tx) =>
    tx.select({ rateLimitRpm: tenants.rateLimitRpm }).from(tenants).where(eq(tenants.id, ctx.tenantId)),
  );
  const limit = callerLimit(ctx.env, tenant?.rateLimitRpm ?? null);
  return slidingWindow(ctx.kv, `user:${ctx.tenantId}:${userId}`, limit, 60, ctx.now().getTime());
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
