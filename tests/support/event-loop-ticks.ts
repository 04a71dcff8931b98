/**
 * How often the event loop was free while `work` ran: a timer re-armed every millisecond counts its
 * callbacks. Work that blocks the loop (a synchronous compile or parse) lets none run however long it takes;
 * work in a worker thread lets them run all along. A count, not a duration: compare it between two runs
 * (the same work in a worker and cached, say) rather than with the clock.
 */
export async function ticksDuring<T>(work: () => Promise<T>): Promise<{ result: T; ticks: number }> {
  let ticks = 0;
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    ticks++;
    timer = setTimeout(tick, 1);
  };
  timer = setTimeout(tick, 1);
  try {
    const result = await work();
    return { result, ticks };
  } finally {
    clearTimeout(timer);
  }
}
