/** Runs `count` calls with `concurrency` in flight and times each; a closed loop like a client pool. */

export interface TimedCalls<T> {
  results: Array<{ ms: number; value: T }>;
  elapsedMs: number;
}

export async function timedCalls<T>(
  count: number,
  concurrency: number,
  call: (i: number) => Promise<T>,
): Promise<TimedCalls<T>> {
  const results: Array<{ ms: number; value: T }> = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const i = next++;
        const t0 = performance.now();
        const value = await call(i);
        results.push({ ms: performance.now() - t0, value });
      }
    }),
  );
  return { results, elapsedMs: performance.now() - started };
}

/** Peak RSS of this process while `work` runs, sampled every 10 ms. */
export async function ownPeakRss<T>(work: () => Promise<T>): Promise<{ result: T; peakMb: number }> {
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  try {
    const result = await work();
    return { result, peakMb: Math.max(peak, process.memoryUsage().rss) / 2 ** 20 };
  } finally {
    clearInterval(sampler);
  }
}
