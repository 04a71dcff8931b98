/**
 * Sliding-window rate limit over KV with two fixed-window counters: the estimate is
 * previous × (share of the previous window still inside the sliding window) + current. INCR is atomic
 * in every KV adapter, so instances sharing Redis share the limit. Refused attempts count too, so a
 * client that keeps hammering stays limited.
 */
import type { Kv, KvPipeline } from "@/lib/kv";

export interface RateLimitDecision {
  ok: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window has room again (≥ 1 when refused). */
  retryAfter: number;
  /** Seconds until the current fixed window ends (for RateLimit-Reset). */
  reset: number;
}

/** One window's KV commands, queued on a pipeline that may carry other commands, and the decision from their replies. */
export interface WindowCheck {
  /** Queues the window's commands; they take `replies` places of the pipeline's results, in order. */
  queue(pipeline: KvPipeline): void;
  replies: number;
  decide(replies: readonly unknown[], limit: number): RateLimitDecision;
}

/**
 * Counts one call in the window of `key` (with `peek`, counts nothing: the decision says whether one more
 * call would be allowed). Queued on a caller's pipeline, the count costs no round trip of its own.
 */
export function windowCheck(
  key: string,
  windowSeconds: number,
  nowMs: number,
  options: { peek?: boolean } = {},
): WindowCheck {
  const windowMs = windowSeconds * 1000;
  const index = Math.floor(nowMs / windowMs);
  const elapsed = (nowMs % windowMs) / windowMs;
  const current = `smx:rl:${key}:${index}`;
  const previous = `smx:rl:${key}:${index - 1}`;
  return {
    replies: options.peek ? 2 : 3,
    queue(pipeline) {
      if (options.peek) pipeline.get(current).get(previous);
      else
        pipeline
          .incr(current)
          .get(previous)
          .expire(current, windowSeconds * 2);
    },
    decide([count, previousRaw], limit) {
      const curr = Number(count ?? 0) + (options.peek ? 1 : 0);
      const prev = Number(previousRaw ?? 0);
      // In whole milliseconds, so a retry made exactly Retry-After later is not refused by a rounding error.
      const estimate = (prev * (windowMs - (nowMs % windowMs))) / windowMs + curr;
      const reset = Math.max(1, Math.ceil((1 - elapsed) * windowSeconds));
      const ok = estimate <= limit;
      return {
        ok,
        limit,
        remaining: Math.max(0, Math.floor(limit - estimate)),
        retryAfter: ok ? 0 : retryAfter(),
        reset,
      };

      /** Seconds until one more call fits: the retry itself adds 1 to the current window's count. */
      function retryAfter(): number {
        // Within this window, the previous window's share shrinks until prev × (1 − e) + curr + 1 ≤ limit.
        if (curr + 1 <= limit && prev > 0) {
          const e = 1 - (limit - curr - 1) / prev;
          return Math.max(1, Math.ceil((e - elapsed) * windowSeconds));
        }
        // Otherwise into the next window, where this window becomes the previous: curr × (1 − e) + 1 ≤ limit.
        const e = Math.max(0, 1 - (limit - 1) / curr);
        return Math.max(1, Math.ceil((1 - elapsed + e) * windowSeconds));
      }
    },
  };
}

/** Counts one call against `limit` per `windowSeconds` and decides it, in one round trip of its own. */
export async function slidingWindow(
  kv: Kv,
  key: string,
  limit: number,
  windowSeconds: number,
  nowMs: number,
  options: { peek?: boolean } = {},
): Promise<RateLimitDecision> {
  const check = windowCheck(key, windowSeconds, nowMs, options);
  const pipeline = kv.pipeline();
  check.queue(pipeline);
  return check.decide(await pipeline.exec(), limit);
}
