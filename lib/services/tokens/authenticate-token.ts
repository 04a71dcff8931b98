import type { KvAlongside } from "@/lib/kv/alongside";
import type { Platform } from "@/lib/pipeline/context";
import {
  countFailedAuth,
  peekFailedAuth,
  tokenRateLimit,
  tokenWindow,
} from "@/lib/pipeline/rate-limit/limits";
import type { RateLimitDecision, WindowCheck } from "@/lib/pipeline/rate-limit/sliding-window";
import { cachedToken, isLookupsBusy, lookUpToken, type VerifiedToken } from "./verify-token";

export type Authentication =
  /**
   * With `limit` when the token's rate limit was counted in the same KV round trip as its check, and then
   * `alongside`: the replies to the caller's `alongside` commands, in order.
   */
  | { token: VerifiedToken; limit?: RateLimitDecision; alongside?: unknown[] }
  | { refused: "unauthorized" }
  /** The client address is over the failed-authentication limit. */
  | { refused: "rate_limited"; retryAfter: number }
  /** Too many unknown tokens wait for a lookup in this process; the token was not looked up. */
  | { refused: "busy"; retryAfter: number };

/**
 * Authenticates a presented token (or none) for a token route, limiting failed authentications per
 * client address (null when no trusted proxy tells it). A token that verifies is never refused by that
 * limit and never counted: only failures count. What the limit bounds is the database: while an address
 * is over it, a token KV has not seen is refused without a lookup, unless it verified before (vouched),
 * so a client behind the same address as a guesser keeps working. Without an address (no trusted proxy)
 * nothing is counted, and only the bound on unvouched lookups (UNVOUCHED_LOOKUPS, and
 * UNVOUCHED_LOOKUPS_WAITING waiting, beyond which an unknown token is "busy") protects the database.
 */
export async function authenticateToken({
  ctx,
  input,
}: {
  ctx: Platform;
  input: {
    token: string | null;
    address: string | null;
    /**
     * The caller's own KV commands for the check's round trip, asked for only when the token is one this
     * process saw verify.
     */
    alongside?: () => Promise<KvAlongside>;
  };
}): Promise<Authentication> {
  const { token, address } = input;
  if (token) {
    // A token this process saw verify has its call counted (and the caller's commands sent) in the check's
    // round trip.
    const counted: { tokenId?: string; window?: WindowCheck } = {};
    const known = await cachedToken({
      ctx,
      input: { token },
      alongside: async (tokenId) => {
        counted.tokenId = tokenId;
        counted.window = tokenWindow(ctx, tokenId);
        const callers = await input.alongside?.();
        return callers ? [counted.window, callers] : [counted.window];
      },
    });
    // The call was counted for the id this process remembered: the decision holds for that token only.
    const verified = (found: VerifiedToken): Authentication => {
      if (!counted.window || !known.alongside || found.tokenId !== counted.tokenId) return { token: found };
      const [windowReplies = [], callers] = known.alongside;
      return {
        token: found,
        limit: counted.window.decide(windowReplies, tokenRateLimit(ctx.env, found)),
        alongside: callers,
      };
    };
    if (known.verdict) return verified(known.verdict);
    if (known.verdict === undefined) {
      if (address && !known.vouched) {
        const standing = await peekFailedAuth(ctx, address);
        if (!standing.ok) return { refused: "rate_limited", retryAfter: standing.retryAfter };
      }
      const found = await lookUpToken({ ctx, input: { token }, vouched: known.vouched }).catch(
        (error: unknown) => {
          if (isLookupsBusy(error)) return "busy" as const;
          throw error;
        },
      );
      if (found === "busy") return { refused: "busy", retryAfter: 1 };
      if (found) return verified(found);
    }
  }
  if (!address) return { refused: "unauthorized" };
  const failures = await countFailedAuth(ctx, address);
  return failures.ok
    ? { refused: "unauthorized" }
    : { refused: "rate_limited", retryAfter: failures.retryAfter };
}
