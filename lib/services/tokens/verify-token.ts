import { and, eq, isNull } from "drizzle-orm";
import { apiTokens, tenants } from "../../db/schema";
import { log } from "../../observability/logger";
import type { Platform, Scope } from "../context";
import { hashToken, hasValidChecksum } from "./token-format";

/** Verification results live in KV at most this long; revocation also deletes them at once. */
export const TOKEN_CACHE_SECONDS = 60;
const LAST_USED_INTERVAL_SECONDS = 60;

export interface VerifiedToken {
  tokenId: string;
  tenantId: string;
  name: string;
  scopes: Scope[];
  expiresAt: string | null;
  /** The tenant's per-token limit override (requests per minute), if any. */
  rateLimitRpm: number | null;
}

export const tokenCacheKey = (tokenHash: string) => `smx:token:${tokenHash}`;

/**
 * The token's tenant and scopes, or null when it is malformed, unknown, revoked or expired.
 * A bad checksum is refused before any I/O; a known token costs one KV read on the hot path.
 */
export async function verifyToken({
  ctx,
  input,
}: {
  ctx: Platform;
  input: { token: string };
}): Promise<VerifiedToken | null> {
  const cached = await cachedToken({ ctx, input });
  return cached === undefined ? lookUpToken({ ctx, input }) : cached;
}

/**
 * What KV already knows of the token, never asking the database: the token when valid, null when known
 * to be invalid (a bad checksum needs no I/O), undefined when KV has not seen it.
 */
export async function cachedToken({
  ctx,
  input,
}: {
  ctx: Platform;
  input: { token: string };
}): Promise<VerifiedToken | null | undefined> {
  if (!hasValidChecksum(input.token)) return null;
  const cached = await ctx.kv.get(tokenCacheKey(hashToken(input.token)));
  return cached === null ? undefined : usable(ctx, JSON.parse(cached) as VerifiedToken | null);
}

/** Looks the token up in the database (and caches the verdict in KV); for tokens KV has not seen. */
export async function lookUpToken({
  ctx,
  input,
}: {
  ctx: Platform;
  input: { token: string };
}): Promise<VerifiedToken | null> {
  return usable(ctx, await lookupAndCache(ctx, hashToken(input.token)));
}

function usable(ctx: Platform, found: VerifiedToken | null): VerifiedToken | null {
  if (!found || (found.expiresAt && new Date(found.expiresAt) <= ctx.now())) return null;
  touchLastUsed(ctx, found.tokenId);
  return found;
}

async function lookupAndCache(ctx: Platform, hash: string): Promise<VerifiedToken | null> {
  const [row] = await ctx.db.withSystem((tx) =>
    tx
      .select({
        tokenId: apiTokens.id,
        tenantId: apiTokens.tenantId,
        name: apiTokens.name,
        scopes: apiTokens.scopes,
        expiresAt: apiTokens.expiresAt,
        rateLimitRpm: tenants.rateLimitRpm,
      })
      .from(apiTokens)
      .innerJoin(tenants, eq(tenants.id, apiTokens.tenantId))
      .where(and(eq(apiTokens.tokenHash, hash), isNull(apiTokens.revokedAt))),
  );
  const found = row
    ? { ...row, scopes: row.scopes as Scope[], expiresAt: row.expiresAt?.toISOString() ?? null }
    : null;
  // Unknown hashes are cached too: a new token has a new hash, so this never hides a fresh token.
  await ctx.kv.set(tokenCacheKey(hash), JSON.stringify(found), { ttlSeconds: TOKEN_CACHE_SECONDS });
  return found;
}

/** When this process last recorded each token's use; bounded by the tokens in use within a minute. */
const lastTouched = new Map<string, number>();

/**
 * Records last use at most once a minute per token, without making the caller wait: this process asks
 * KV (which arbitrates between instances) only when it has not itself recorded the token this minute.
 */
function touchLastUsed(ctx: Platform, tokenId: string): void {
  const now = Date.now();
  if (now - (lastTouched.get(tokenId) ?? 0) < LAST_USED_INTERVAL_SECONDS * 1000) return;
  lastTouched.set(tokenId, now);
  if (lastTouched.size > 10_000) lastTouched.clear();
  void ctx.kv
    .set(`smx:token-used:${tokenId}`, "1", { ttlSeconds: LAST_USED_INTERVAL_SECONDS, onlyIfAbsent: true })
    .then((first) =>
      first
        ? ctx.db.withSystem((tx) =>
            tx.update(apiTokens).set({ lastUsedAt: ctx.now() }).where(eq(apiTokens.id, tokenId)),
          )
        : undefined,
    )
    .catch((error: unknown) => log().warn(error, "token last-used update failed"));
}
