/**
 * Commands sent alongside another round trip: a caller about to run a pipeline anyway (the token check)
 * queues other callers' commands after its own and hands each its replies, so they cost no round trip of
 * their own. Platform layer: imports only lib/kv.
 */
import type { KvPipeline } from "@/lib/kv/types";

/** Commands to queue on someone else's pipeline; their replies are the `replies` that follow, in order. */
export interface KvAlongside {
  queue(pipeline: KvPipeline): void;
  readonly replies: number;
}

/** Reads of `keys`, one reply each (a string, or null for a missing key). */
export const readsAlongside = (keys: readonly string[]): KvAlongside => ({
  queue(pipeline) {
    for (const key of keys) pipeline.get(key);
  },
  replies: keys.length,
});

/**
 * Runs `pipeline` with `alongside` queued after its own commands, in one round trip: the pipeline's own
 * replies, and each of `alongside` its share of the rest, in order.
 */
export async function execAlongside(
  pipeline: KvPipeline,
  alongside: readonly KvAlongside[],
): Promise<{ own: unknown[]; alongside: unknown[][] }> {
  for (const extra of alongside) extra.queue(pipeline);
  const replies = await pipeline.exec();
  let next = replies.length - alongside.reduce((sum, extra) => sum + extra.replies, 0);
  const own = replies.slice(0, next);
  return {
    own,
    alongside: alongside.map((extra) => {
      next += extra.replies;
      return replies.slice(next - extra.replies, next);
    }),
  };
}
