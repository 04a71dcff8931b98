/**
 * A burst of authenticated calls spread round-robin over several instances, all in flight at once,
 * for checking that a per-token rate limit holds exactly across instances sharing Redis.
 */
import { setTimeout as sleep } from "node:timers/promises";

const WINDOW_MS = 60_000;
/** The burst must fit in one fixed window, so the previous window's share plays no part. */
const MARGIN_MS = 15_000;

/** Waits, if needed, until the current one-minute window has at least MARGIN_MS left. */
export async function atStartOfFreshWindow(): Promise<void> {
  const left = WINDOW_MS - (Date.now() % WINDOW_MS);
  if (left < MARGIN_MS) await sleep(left + 100);
}

export interface BurstResult {
  statuses: Record<number, number>;
  /** Retry-After values of the 429 answers. */
  retryAfter: number[];
}

export async function burst(
  urls: readonly string[],
  path: string,
  token: string,
  calls: number,
): Promise<BurstResult> {
  const statuses: Record<number, number> = {};
  const retryAfter: number[] = [];
  await Promise.all(
    Array.from({ length: calls }, async (_, i) => {
      const response = await fetch(`${urls[i % urls.length]}${path}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      await response.arrayBuffer();
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      if (response.status === 429) retryAfter.push(Number(response.headers.get("retry-after")));
    }),
  );
  return { statuses, retryAfter };
}
