/**
 * The prices calls are charged at: the price table (lib/providers/prices.ts) with the operator's corrections
 * from SEARCHMUX_PRICES, JSON in the variable or the path of a JSON file:
 *   {"<key>": {"usd_per_request"?, "usd_per_extra_result"?, "results_included"?, "results_per_block"?,
 *              "usd_per_million_tokens"?: [in, out], "free_tier"?: {"requests"|"usd", "period"} | null}}
 * Each field given replaces the table's; a free tier is the account's, so it is set on the provider's own key
 * and applies to all its tools. An entry that does not parse refuses the start (priceOverridesProblem).
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import type { ListedPrice, Price } from "@/lib/engine/shared/types";
import type { Env } from "@/lib/pipeline/capabilities";
import { accountOf, PRICE_TABLE } from "@/lib/providers/prices";

const PRICES_ENV = "SEARCHMUX_PRICES";

const usd = z.number().nonnegative();
const period = z.enum(["day", "month", "lifetime"]);

const overrideSchema = z.strictObject({
  usd_per_request: usd.optional(),
  usd_per_extra_result: usd.optional(),
  results_included: z.int().nonnegative().optional(),
  results_per_block: z.int().positive().optional(),
  usd_per_million_tokens: z.tuple([usd, usd]).optional(),
  free_tier: z
    .union([
      z.strictObject({ requests: z.int().positive(), period }),
      z.strictObject({ usd: z.number().positive(), period }),
    ])
    .nullable()
    .optional(),
});

type PriceOverride = z.infer<typeof overrideSchema>;

/** The overrides as the variable names them, or why they cannot be used (naming the entry and field). */
type Parsed = { ok: true; overrides: ReadonlyMap<string, PriceOverride> } | { ok: false; problem: string };

const NO_OVERRIDES: Parsed = { ok: true, overrides: new Map() };

function readSource(value: string): unknown {
  const text = value.startsWith("{") ? value : readFileSync(value, "utf8");
  return JSON.parse(text);
}

function parseOverrides(raw: string | undefined): Parsed {
  const value = raw?.trim();
  if (!value) return NO_OVERRIDES;
  let json: unknown;
  try {
    json = readSource(value);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return { ok: false, problem: `${PRICES_ENV}: not JSON, nor a readable JSON file (${why})` };
  }
  if (typeof json !== "object" || json === null || Array.isArray(json))
    return { ok: false, problem: `${PRICES_ENV}: must be an object of price table keys` };
  const overrides = new Map<string, PriceOverride>();
  for (const [key, entry] of Object.entries(json)) {
    if (!PRICE_TABLE.has(key))
      return {
        ok: false,
        problem: `${PRICES_ENV}: "${key}" is not in the price table (a provider id, or <id>/<kind>)`,
      };
    const parsed = overrideSchema.safeParse(entry);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue?.path.length ? `.${issue.path.join(".")}` : "";
      const keys = issue?.code === "unrecognized_keys" ? `.${issue.keys.join(", ")}` : "";
      return { ok: false, problem: `${PRICES_ENV}: ${key}${field}${keys}: ${issue?.message ?? "invalid"}` };
    }
    if (parsed.data.free_tier !== undefined && accountOf(key) !== key)
      return {
        ok: false,
        problem: `${PRICES_ENV}: ${key}.free_tier: a free tier is the account's; set it on "${accountOf(key)}"`,
      };
    overrides.set(key, parsed.data);
  }
  return { ok: true, overrides };
}

/** Parsed once per value of the variable (a file is read once, at the first use). */
let memo: { raw: string | undefined; parsed: Parsed } | undefined;

function overridesOf(env: Env): Parsed {
  const raw = env[PRICES_ENV];
  if (memo === undefined || memo.raw !== raw) memo = { raw, parsed: parseOverrides(raw) };
  return memo.parsed;
}

/** Why SEARCHMUX_PRICES refuses the start, naming the entry and field; undefined when it is fine. */
export function priceOverridesProblem(env: Env): string | undefined {
  const parsed = overridesOf(env);
  return parsed.ok ? undefined : parsed.problem;
}

function overrides(env: Env): ReadonlyMap<string, PriceOverride> {
  const parsed = overridesOf(env);
  // The start refused this already; a process that skipped the check must not charge a price the operator
  // did not mean.
  if (!parsed.ok) throw new Error(parsed.problem);
  return parsed.overrides;
}

/** A listed price with the operator's override of its entry and of its account's free tier. */
export function priceWithOverrides(listed: ListedPrice, env: Env): Price {
  const all = overrides(env);
  const own = all.get(listed.key);
  const account = all.get(accountOf(listed.key));
  const { key: _key, source: _source, as_of: _asOf, note: _note, ...price } = listed;
  return {
    ...price,
    ...own,
    free_tier: account?.free_tier !== undefined ? account.free_tier : listed.free_tier,
  };
}

/** Every entry of the table as calls are charged, with the fields the operator's override set. */
export function priceTable(env: Env): Array<ListedPrice & { overridden: string[] }> {
  const all = overrides(env);
  return [...PRICE_TABLE.values()].map((listed) => {
    const own = Object.keys(all.get(listed.key) ?? {});
    const account = accountOf(listed.key);
    const tierFromAccount = account !== listed.key && all.get(account)?.free_tier !== undefined;
    return {
      ...listed,
      ...priceWithOverrides(listed, env),
      overridden: tierFromAccount ? [...own, "free_tier"] : own,
    };
  });
}
