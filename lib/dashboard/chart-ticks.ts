/**
 * Axis ticks people can read at a glance: values at round steps (1, 2, 2.5 or 5 times a power of ten)
 * from zero to just above the largest value, and dates a whole week apart ending on the latest day.
 */

/** Drops the float noise of repeated addition (0.30000000000000004). */
const tidy = (n: number) => Number(n.toPrecision(12));

function roundStep(rough: number, integer: boolean): number {
  const power = 10 ** Math.floor(Math.log10(rough));
  // 2.5 is not a whole number below 10: counts step by 1, 2, 5, 10, 20, 25, 50, …
  const multiples = integer && power < 10 ? [1, 2, 5, 10] : [1, 2, 2.5, 5, 10];
  const multiple = multiples.find((m) => m * power >= rough) ?? 10;
  return Math.max(tidy(multiple * power), integer ? 1 : 0);
}

/**
 * Ticks from 0 to the first round value at or above `max`, about `count` steps apart; `integer` keeps
 * steps whole (counts). Nothing to show (max ≤ 0) gives the axis of a maximum of 1.
 */
export function niceTicks(max: number, { integer = false, count = 4 } = {}): number[] {
  const top = max > 0 && Number.isFinite(max) ? max : 1;
  const step = roundStep(top / count, integer);
  const ticks = [0];
  while ((ticks.at(-1) ?? 0) < top) ticks.push(tidy(ticks.length * step));
  return ticks;
}

/** Every `every`-th of `dates` (ascending), counted back from the latest, oldest first. */
export function dayTicks(dates: readonly string[], every = 7): string[] {
  return dates.filter((_, index) => (dates.length - 1 - index) % every === 0);
}

/** The largest value a chart draws: stacked series add up per row, others stand alone. */
export function chartMax(
  rows: ReadonlyArray<Record<string, string | number | null>>,
  series: ReadonlyArray<{ key: string; stack?: string }>,
): number {
  let max = 0;
  for (const row of rows) {
    const stacks = new Map<string, number>();
    for (const { key, stack } of series) {
      const value = Number(row[key] ?? 0);
      if (stack === undefined) max = Math.max(max, value);
      else stacks.set(stack, (stacks.get(stack) ?? 0) + value);
    }
    max = Math.max(max, ...stacks.values());
  }
  return max;
}
