import { and, eq, isNull } from "drizzle-orm";
import { apiTokens, type ConnectionProfile, oauthGrants, tenants } from "@/lib/db/schema";
import type { Kv } from "@/lib/kv";
import { execAlongside, type KvAlongside } from "@/lib/kv/alongside";
import { log } from "@/lib/observability/logger";
import { CONNECTED_APP_SCOPES, type Platform, type Scope } from "@/lib/pipeline/context";
import { hashToken, hasValidChecksum } from "./token-format";

/** Verification results live in KV at most this long; revocation replaces them with a tombstone at once. */
const TOKEN_CACHE_SECONDS = 60;
/**
 * What a token's cache entry holds for a while after its profile changed: "look me up", which a lookup under
 * way cannot overwrite (see lookupAndCache), so no instance serves the old profile from KV. It outlives any
 * lookup that may cache (LOOKUP_CACHE_DEADLINE_MS); until it expires the token is read from the database.
 */
const LOOK_UP_AGAIN = "lookup";
const LOOK_UP_AGAIN_SECONDS = 30;
/**
 * How long a revocation's tombstone lives: far longer than any lookup may take before it caches (see
 * LOOKUP_CACHE_DEADLINE_MS), so a lookup under way when the token was revoked always finds it. A revoked
 * token never becomes valid again, so the length costs nothing but the key.
 */
export const TOKEN_TOMBSTONE_SECONDS = 600;
/** A lookup slower than this answers without caching: a tombstone written meanwhile might have expired. */
const LOOKUP_CACHE_DEADLINE_MS = 10_000;
/**
 * How long a token that verified stays vouched for: while its client address is over the failed-auth
 * limit, a vouched token is still looked up (and passes); one never seen valid is refused unasked.
 */
const TOKEN_VOUCH_SECONDS = 30 * 86_400;
/** Database lookups of tokens not vouched for, at most this many at once per instance (guesses among them). */
export const UNVOUCHED_LOOKUPS = 2;
/**
 * Unvouched lookups that may wait for a slot; beyond them a token is refused unasked (LookupsBusy), so a
 * flood of guesses cannot pile up requests and memory without bound.
 */
export const UNVOUCHED_LOOKUPS_WAITING = 256;
const LAST_USED_INTERVAL_SECONDS = 60;

export interface VerifiedToken {
  tokenId: string;
  tenantId: string;
  name: string;
  scopes: Scope[];
  /** The member who created the token (their calls' traces name them); null for the operator's. */
  createdBy: string | null;
  expiresAt: string | null;
  /**
   * The resource (RFC 8707) an OAuth access token was issued for, the only one that accepts it; null for
   * tokens people create (and absent from verdicts cached before tokens had audiences).
   */
  audience?: string | null;
  /** The tenant's per-token limit override (requests per minute), if any. */
  rateLimitRpm: number | null;
  /** Its profile, or for an OAuth access token its grant's; null or absent: none. */
  profile?: ConnectionProfile | null;
}

export const tokenCacheKey = (tokenHash: string) => `smx:token:${tokenHash}`;
const tokenVouchKey = (tokenHash: string) => `smx:token-vouched:${tokenHash}`;

/** What KV knows of a token before the database is asked. */
export interface KnownToken {
  /** The token when valid, null when known to be invalid (revoked, unknown, malformed), undefined when unseen. */
  verdict: VerifiedToken | null | undefined;
  /** The token verified within TOKEN_VOUCH_SECONDS and was not revoked since. */
  vouched: boolean;
  /** The replies of each of the commands `alongside` gave, when the token was one this process saw verify. */
  alongside?: unknown[][];
}

/**
 * Ids of the tokens this process saw verify, by hash: a request presenting one can send its own KV
 * commands (its rate limit) in the token check's round trip. An id is only a hint: what counts is the
 * verdict read in that round trip (a revocation's tombstone included). Cleared when full.
 */
const seenValid = new Map<string, string>();
const SEEN_VALID_MAX = 10_000;

function rememberValid(hash: string, token: VerifiedToken | null): VerifiedToken | null {
  if (token) {
    if (seenValid.size >= SEEN_VALID_MAX) seenValid.clear();
    seenValid.set(hash, token.tokenId);
  }
  return token;
}

/**
 * The token's tenant and scopes, or null when it is malformed, unknown, revoked or expired.
 * A bad checksum is refused before any I/O; a known token costs one KV round trip on the hot path.
 */
export async function verifyToken({
  ctx,
  input,
}: {
  ctx: Platform;
  input: { token: string };
}): Promise<VerifiedToken | null> {
  const known = await cachedToken({ ctx, input });
  return known.verdict === undefined ? lookUpToken({ ctx, input, vouched: known.vouched }) : known.verdict;
}

/** What KV already knows of the token, never asking the database; a bad checksum needs no I/O at all. */
export async function cachedToken({
  ctx,
  input,
  alongside,
}: {
  ctx: Platform;
  input: { token: string };
  /** Commands to send in the same round trip, given the id of a token this process saw verify. */
  alongside?: (tokenId: string) => Promise<readonly KvAlongside[]>;
}): Promise<KnownToken> {
  if (!hasValidChecksum(input.token)) return { verdict: null, vouched: false };
  const hash = hashToken(input.token);
  const tokenId = seenValid.get(hash);
  const extra = tokenId === undefined ? undefined : await alongside?.(tokenId);
  const {
    own: [cached, vouched],
    alongside: replies,
  } = await execAlongside(ctx.kv.pipeline().get(tokenCacheKey(hash)).get(tokenVouchKey(hash)), extra ?? []);
  const entry = typeof cached === "string" ? cachedVerdict(cached) : undefined;
  const verdict = entry === undefined ? undefined : usable(ctx, entry);
  return {
    verdict: verdict ? rememberValid(hash, verdict) : verdict,
    vouched: typeof vouched === "string",
    alongside: extra ? replies : undefined,
  };
}

/**
 * Looks the token up in the database and caches the verdict, for tokens KV has not seen. Lookups of
 * tokens not vouched for wait for one of UNVOUCHED_LOOKUPS slots, so guessing cannot take the pool;
 * throws LookupsBusy when UNVOUCHED_LOOKUPS_WAITING already wait.
 */
export async function lookUpToken({
  ctx,
  input,
  vouched,
}: {
  ctx: Platform;
  input: { token: string };
  vouched: boolean;
}): Promise<VerifiedToken | null> {
  const hash = hashToken(input.token);
  const lookups = inFlightLookups();
  let pending = lookups.get(hash);
  if (!pending) {
    const lookup = () => lookupAndCache(ctx, hash);
    pending = (vouched ? lookup() : unvouchedLookups()(lookup)).finally(() => lookups.delete(hash));
    lookups.set(hash, pending);
  }
  return rememberValid(hash, usable(ctx, await pending));
}

/**
 * The token unless it expired. A connected app's token (one with an audience) holds only what apps may
 * hold, whatever its row says: grants approved before `admin` was withheld from apps lose it here.
 */
function usable(ctx: Platform, found: VerifiedToken | null): VerifiedToken | null {
  if (!found || (found.expiresAt && new Date(found.expiresAt) <= ctx.now())) return null;
  if (!found.audience || found.scopes.every((scope) => CONNECTED_APP_SCOPES.includes(scope))) return found;
  return { ...found, scopes: found.scopes.filter((scope) => CONNECTED_APP_SCOPES.includes(scope)) };
}

async function lookupAndCache(ctx: Platform, hash: string): Promise<VerifiedToken | null> {
  const started = ctx.now().getTime();
  const [row] = await ctx.db.withSystem((tx) =>
    tx
      .select({
        tokenId: apiTokens.id,
        tenantId: apiTokens.tenantId,
        name: apiTokens.name,
        scopes: apiTokens.scopes,
        createdBy: apiTokens.createdBy,
        expiresAt: apiTokens.expiresAt,
        audience: apiTokens.audience,
        rateLimitRpm: tenants.rateLimitRpm,
        ownProfile: apiTokens.profile,
        grantProfile: oauthGrants.profile,
      })
      .from(apiTokens)
      .innerJoin(tenants, eq(tenants.id, apiTokens.tenantId))
      .leftJoin(oauthGrants, eq(oauthGrants.id, apiTokens.grantId))
      .where(and(eq(apiTokens.tokenHash, hash), isNull(apiTokens.revokedAt))),
  );
  const found = row ? verifiedToken(row) : null;
  const key = tokenCacheKey(hash);
  if (ctx.now().getTime() - started < LOOKUP_CACHE_DEADLINE_MS) {
    // Unknown hashes are cached too: a new token has a new hash, so this never hides a fresh token. The
    // verdict is written only where KV has none: a revocation that committed after the read above left a
    // tombstone there. The vouch goes first, so that revocation's removal of it comes after; a token the
    // database does not know loses any vouch (one left by a revocation whose tombstone failed).
    const write = ctx.kv.pipeline();
    if (found) write.set(tokenVouchKey(hash), "1", { ttlSeconds: TOKEN_VOUCH_SECONDS });
    else write.del(tokenVouchKey(hash));
    const [, written] = await write
      .set(key, JSON.stringify(found), { ttlSeconds: TOKEN_CACHE_SECONDS, onlyIfAbsent: true })
      .exec();
    if (written) return found;
  }
  // What KV says wins: a tombstone (then the vouch just written goes), or a concurrent lookup's verdict; a
  // changed profile's "look up again" lets this lookup's fresh row answer.
  const current = await ctx.kv.get(key);
  if (current === null) return found;
  const verdict = cachedVerdict(current);
  if (verdict === undefined) return found;
  if (found && !verdict) await ctx.kv.del(tokenVouchKey(hash));
  return verdict;
}

/**
 * Marks revoked tokens invalid in KV: a tombstone verdict (which a lookup already under way cannot
 * overwrite, see lookupAndCache) and no vouching. Call after the revocation committed.
 */
export async function tombstoneTokens(kv: Kv, tokenHashes: readonly string[]): Promise<void> {
  if (tokenHashes.length === 0) return;
  const pipeline = kv.pipeline();
  for (const hash of tokenHashes) {
    pipeline
      .set(tokenCacheKey(hash), "null", { ttlSeconds: TOKEN_TOMBSTONE_SECONDS })
      .del(tokenVouchKey(hash));
  }
  await pipeline.exec();
}

/**
 * Makes every instance read these tokens from the database again (their profile changed): a "look up again"
 * entry no lookup under way can overwrite. Call after the change committed.
 */
export async function lookUpTokensAgain(kv: Kv, tokenHashes: readonly string[]): Promise<void> {
  if (tokenHashes.length === 0) return;
  const pipeline = kv.pipeline();
  for (const hash of tokenHashes) {
    pipeline.set(tokenCacheKey(hash), JSON.stringify(LOOK_UP_AGAIN), { ttlSeconds: LOOK_UP_AGAIN_SECONDS });
  }
  await pipeline.exec();
}

/** A cache entry's verdict; undefined for "look up again". */
function cachedVerdict(entry: string): VerifiedToken | null | undefined {
  const parsed = JSON.parse(entry) as VerifiedToken | null | typeof LOOK_UP_AGAIN;
  return parsed === LOOK_UP_AGAIN ? undefined : parsed;
}

type TokenRow = Omit<VerifiedToken, "scopes" | "expiresAt" | "profile"> & {
  scopes: string[];
  expiresAt: Date | null;
  ownProfile: ConnectionProfile | null;
  grantProfile: ConnectionProfile | null;
};

function verifiedToken({ ownProfile, grantProfile, ...row }: TokenRow): VerifiedToken {
  return {
    ...row,
    scopes: row.scopes as Scope[],
    expiresAt: row.expiresAt?.toISOString() ?? null,
    profile: grantProfile ?? ownProfile,
  };
}

/** Thrown when UNVOUCHED_LOOKUPS_WAITING lookups already wait: the token is refused without a lookup. */
class LookupsBusy extends Error {
  constructor() {
    super("too many unverified tokens are being checked at once");
    this.name = "LookupsBusy";
  }
}

/** By name: the limiter is shared on globalThis, so its error may come from another bundle's class. */
export const isLookupsBusy = (error: unknown): boolean =>
  error instanceof Error && error.name === "LookupsBusy";

/** Runs `work` when one of `slots` is free, in arrival order; throws LookupsBusy when `queue` already wait. */
function slotLimiter(slots: number, queue: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (running < slots) running++;
    else if (waiting.length >= queue) throw new LookupsBusy();
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await work();
    } finally {
      // The slot passes straight to the next in line, or frees up.
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

// On globalThis: Next.js bundles routes separately, and the bound is per process.
const holder = globalThis as typeof globalThis & {
  searchmuxUnvouchedLookups?: ReturnType<typeof slotLimiter>;
  searchmuxTokenLookups?: Map<string, Promise<VerifiedToken | null>>;
};

/**
 * Lookups under way per token hash: concurrent requests with one token not yet in KV (a client opening
 * many connections at once) share one database read instead of queueing for the slots one by one.
 */
function inFlightLookups() {
  holder.searchmuxTokenLookups ??= new Map();
  return holder.searchmuxTokenLookups;
}
function unvouchedLookups() {
  holder.searchmuxUnvouchedLookups ??= slotLimiter(UNVOUCHED_LOOKUPS, UNVOUCHED_LOOKUPS_WAITING);
  return holder.searchmuxUnvouchedLookups;
}

/** When this process last recorded each token's use; bounded by the tokens in use within a minute. */
const lastTouched = new Map<string, number>();

/**
 * Records that a token was used, at most once a minute per token, without making the caller wait: this
 * process asks KV (which arbitrates between instances) only when it has not itself recorded the token
 * this minute. Verifying a token does not call this: the transport does once the request is authorized
 * (see withToken), so "last used" tells that someone used the token for something it may do, not that
 * it was presented.
 */
export function recordTokenUse(ctx: Platform, tokenId: string): void {
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
