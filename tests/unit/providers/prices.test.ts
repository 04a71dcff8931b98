/**
 * The price table (lib/providers/prices.ts): an entry, with its source and date, for every provider every
 * registry holds; the one price function (lib/engine/shared/price.ts) for results priced by count; and the
 * operator's SEARCHMUX_PRICES, which refuses the start naming the entry and field it cannot use.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkDeployment } from "@/lib/deploy-check";
import { requestCostMicros } from "@/lib/engine/shared/price";
import { PROVIDER_REGISTRIES } from "@/lib/pipeline/providers/catalog";
import { priceOverridesProblem, priceTable, priceWithOverrides } from "@/lib/pipeline/providers/prices";
import { listedPrice, PRICE_TABLE } from "@/lib/providers/prices";
import { similarProviders } from "@/lib/providers/similar";

const registrations = [...PROVIDER_REGISTRIES.flatMap(([, registry]) => registry), ...similarProviders];

describe("the price table", () => {
  it.each(registrations.map((p) => [p.id, p.price.key, p] as const))(
    "%s (%s) reads its price from the table, with a source and an as-of date",
    (id, key, provider) => {
      expect(PRICE_TABLE.get(key)).toBe(provider.price);
      expect(key === id || key.startsWith(`${id}/`)).toBe(true);
      expect(provider.price.source).toMatch(/^https:\/\//);
      expect(provider.price.as_of).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      // Every provider id has its account's entry: the one its free tier and SEARCHMUX_PRICES key name.
      expect(PRICE_TABLE.get(id)?.free_tier).toEqual(provider.price.free_tier);
    },
  );

  it("lists nothing no registration reads", () => {
    const read = new Set(registrations.flatMap((p) => [p.id, p.price.key]));
    expect([...PRICE_TABLE.keys()].filter((key) => !read.has(key))).toEqual([]);
  });

  it("prices Exa by its results: $0.007 with up to 10, $0.001 for each one beyond", () => {
    const exa = listedPrice("exa");
    expect(requestCostMicros(exa, 25)).toBe(7000 + 15 * 1000);
    expect(requestCostMicros(exa, 5)).toBe(7000);
    expect(requestCostMicros(exa, 10)).toBe(7000);
    expect(requestCostMicros(exa)).toBe(7000);
  });

  it("prices Firecrawl's search at 2 credits per started block of 10 results", () => {
    const firecrawl = listedPrice("firecrawl");
    const credit = requestCostMicros(listedPrice("firecrawl/fetch")); // a scrape is 1 credit
    expect(requestCostMicros(firecrawl, 10)).toBe(2 * credit);
    expect(requestCostMicros(firecrawl, 11)).toBe(4 * credit);
    expect(requestCostMicros(firecrawl, 20)).toBe(4 * credit);
    expect(requestCostMicros(firecrawl, 21)).toBe(6 * credit);
  });

  it("has Brave's, Exa's and You.com's free tiers in dollars", () => {
    expect(listedPrice("brave").free_tier).toEqual({ usd: 5, period: "month" });
    expect(listedPrice("brave_answer").free_tier).toEqual({ usd: 5, period: "month" });
    expect(listedPrice("exa").free_tier).toEqual({ usd: 10, period: "month" });
    expect(listedPrice("you").free_tier).toEqual({ usd: 100, period: "lifetime" });
  });
});

describe("SEARCHMUX_PRICES", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "smx-prices-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const env = (value: string) => ({ SEARCHMUX_PRICES: value });

  it("replaces the fields it names, inline or from a file, and marks them", () => {
    const inline = env('{"exa": {"usd_per_extra_result": 0.002}, "tavily": {"free_tier": null}}');
    expect(priceOverridesProblem(inline)).toBeUndefined();
    expect(requestCostMicros(priceWithOverrides(listedPrice("exa"), inline), 12)).toBe(7000 + 2 * 2000);
    // A free tier is the account's: Tavily's answers lose it with Tavily's search.
    expect(priceWithOverrides(listedPrice("tavily/answer"), inline).free_tier).toBeNull();
    const rows = new Map(priceTable(inline).map((row) => [row.key, row]));
    expect(rows.get("exa")).toMatchObject({
      usd_per_extra_result: 0.002,
      overridden: ["usd_per_extra_result"],
    });
    expect(rows.get("tavily/answer")?.overridden).toEqual(["free_tier"]);
    expect(rows.get("kagi")?.overridden).toEqual([]);

    const file = path.join(dir, "prices.json");
    writeFileSync(file, JSON.stringify({ kagi: { usd_per_request: 0.02 } }));
    expect(priceWithOverrides(listedPrice("kagi"), env(file)).usd_per_request).toBe(0.02);
  });

  it.each([
    ['{"nope": {"usd_per_request": 1}}', '"nope" is not in the price table'],
    ['{"brave": {"usd_per_request": -1}}', "brave.usd_per_request"],
    ['{"brave": {"usd_per_request": "cheap"}}', "brave.usd_per_request"],
    ['{"brave": {"price": 1}}', "brave.price"],
    ['{"exa": {"usd_per_million_tokens": [1]}}', "exa.usd_per_million_tokens"],
    ['{"brave": {"free_tier": {"requests": 10, "period": "week"}}}', "brave.free_tier"],
    [
      '{"exa/answer": {"free_tier": null}}',
      'exa/answer.free_tier: a free tier is the account\'s; set it on "exa"',
    ],
    ["{not json", "not JSON"],
    ["/no/such/prices.json", "not JSON, nor a readable JSON file"],
  ])("refuses %s, naming %s", (value, named) => {
    expect(priceOverridesProblem(env(value))).toContain(named);
    expect(() => priceWithOverrides(listedPrice("brave"), env(value))).toThrow(named);
  });

  it("refuses the start of a server and of the CLI with one line naming the entry", () => {
    const bad = env('{"tavily/answer": {"usd_per_request": -0.5}}');
    for (const runner of ["server", "cli"] as const) {
      const { errors } = checkDeployment({ ...bad, SEARCHMUX_DATA_DIR: dir }, runner, process.cwd(), [
        priceOverridesProblem,
      ]);
      expect(errors).toEqual([expect.stringMatching(/^SEARCHMUX_PRICES: tavily\/answer\.usd_per_request: /)]);
    }
  });
});
