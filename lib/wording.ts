/**
 * Counted nouns for every text people or models read (dashboard, MCP text, CLI): "1 provider",
 * "2 providers", "1,000 requests". One helper, so no text says "1 providers" or "answer(s)".
 */
const counts = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** The noun for `count`: `one` for exactly 1, otherwise `many` (default: `one` + "s"). */
export const nounFor = (count: number, one: string, many = `${one}s`) => (count === 1 ? one : many);

/** `count` with thousands separators and its noun: plural(1, "answer") is "1 answer". */
export const plural = (count: number, one: string, many?: string) =>
  `${counts.format(count)} ${nounFor(count, one, many)}`;
