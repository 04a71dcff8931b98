/**
 * Prices as data (lib/providers/prices.ts): a provider that prices by the result count reserves the price at
 * the count asked for and keeps the price at the count it returned; the estimate is the reservation; a free
 * tier in dollars becomes a budget in dollars and reads in dollars; SEARCHMUX_PRICES (inline JSON or a file)
 * changes what a call is charged.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { TenantContext } from "@/lib/pipeline/context";
import { budgetStatus } from "@/lib/services/budgets/budget-status";
import { listBudgets } from "@/lib/services/budgets/list-budgets";
import { setBudget } from "@/lib/services/budgets/set-budget";
import { setKey } from "@/lib/services/keys/set-key";
import { webSearch } from "@/lib/services/search/web-search";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { tools } from "@/lib/tools/table";
import { callTool } from "@/lib/tools/tool";
import type { FakeResult } from "@/tests/fakes/provider-server";
import { primaryTarget } from "@/tests/support/database";
import { systemCtx, tenantCtx } from "@/tests/support/platform";
import { fakeBaseUrls, serviceSuite } from "@/tests/support/service-suite";

const results = (count: number): FakeResult[] =>
  Array.from({ length: count }, (_, i) => ({
    title: `Page ${i + 1}`,
    url: `https://example.com/priced-${i + 1}`,
    snippet: `What page ${i + 1} says.`,
  }));

describe.each(primaryTarget())("provider prices on $name", (target) => {
  const s = serviceSuite(target, {
    env: (fake) => ({
      EXA_API_KEY: "operator-exa",
      FIRECRAWL_API_KEY: "operator-firecrawl",
      BRAVE_API_KEY: "operator-brave",
      ...fakeBaseUrls(fake, ["exa", "firecrawl", "brave"]),
    }),
  });
  const dir = mkdtempSync(join(tmpdir(), "smx-prices-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A new workspace (nothing spent yet), on the suite's platform with `env` added to the operator's. */
  async function freshTenant(env: Record<string, string> = {}): Promise<TenantContext> {
    const platform = { ...s.platform, env: { ...s.platform.env, ...env } };
    const tenant = await createTenant({
      ctx: systemCtx(platform),
      input: { name: `prices-${randomUUID()}` },
    });
    return tenantCtx(platform, tenant.id);
  }
  const spentUsd = async (ctx: TenantContext, provider: string) =>
    (await budgetStatus({ ctx })).providers.find((p) => p.provider === provider)?.usd.today ?? 0;
  const search = (ctx: TenantContext, provider: string, max_results: number) =>
    webSearch({
      ctx,
      input: { query: `priced ${provider} ${max_results}`, providers: [provider], max_results },
    });
  const estimateUsd = async (ctx: TenantContext, provider: string, max_results: number) => {
    const input = { query: "priced", providers: [provider], max_results, estimate: true };
    const { response } = await callTool(tools.web_search, ctx, input, {});
    return (response as { estimate: { max_cost_usd: number } }).estimate.max_cost_usd;
  };

  it("Exa: 25 results are reserved and charged at $0.007 + 15 × $0.001, 5 results at $0.007", async () => {
    const ctx = await freshTenant();
    s.fake.setScenario("exa", { results: results(25) });
    expect(await estimateUsd(ctx, "exa", 25)).toBe(0.022);
    await search(ctx, "exa", 25);
    expect(await spentUsd(ctx, "exa")).toBe(0.022);

    s.fake.setScenario("exa", { results: results(5) });
    expect(await estimateUsd(ctx, "exa", 5)).toBe(0.007);
    await search(ctx, "exa", 5);
    expect(await spentUsd(ctx, "exa")).toBe(0.029);
  });

  it("Exa: the reservation is the price at the count asked for, the charge the price at the count returned", async () => {
    const ctx = await freshTenant();
    // $0.021 left for Exa: a call for 25 results ($0.022) is refused before anything is sent.
    await setBudget({ ctx, input: { provider: "exa", metric: "usd", period: "lifetime", limit: 0.021 } });
    s.fake.setScenario("exa", { results: results(12) });
    await expect(search(ctx, "exa", 25)).rejects.toMatchObject({ code: "budget_exhausted" });
    expect(s.fake.requests("exa")).toHaveLength(0);
    // Asked for 20 ($0.017 reserved), it returns 12: $0.009 is kept.
    await search(ctx, "exa", 20);
    expect(await spentUsd(ctx, "exa")).toBe(0.009);
  });

  it("Exa: a call for 50 results is reserved for the 25 its adapter asks for ($0.022), not for 50 ($0.047)", async () => {
    const ctx = await freshTenant();
    // Exactly $0.022 left: enough for what the call can cost, not for 50 results.
    await setBudget({ ctx, input: { provider: "exa", metric: "usd", period: "lifetime", limit: 0.022 } });
    s.fake.setScenario("exa", { results: results(25) });
    expect(await estimateUsd(ctx, "exa", 50)).toBe(0.022);
    await search(ctx, "exa", 50);
    expect(await spentUsd(ctx, "exa")).toBe(0.022);
  });

  it("Firecrawl: 10 results cost 2 credits, 11 results 4 (billed per started 10)", async () => {
    const ctx = await freshTenant();
    const credit = 0.0053;
    s.fake.setScenario("firecrawl", { results: results(10) });
    expect(await estimateUsd(ctx, "firecrawl", 10)).toBe(2 * credit);
    await search(ctx, "firecrawl", 10);
    expect(await spentUsd(ctx, "firecrawl")).toBeCloseTo(2 * credit, 6);

    s.fake.setScenario("firecrawl", { results: results(11) });
    expect(await estimateUsd(ctx, "firecrawl", 11)).toBeCloseTo(4 * credit, 6);
    await search(ctx, "firecrawl", 11);
    expect(await spentUsd(ctx, "firecrawl")).toBeCloseTo(6 * credit, 6);
  });

  it("Brave's free tier is $5 a month: a first key gets a budget in dollars, and the report shows dollars left", async () => {
    const ctx = await freshTenant();
    await setKey({ ctx, input: { provider: "brave", key: "tenant-brave-key" } });
    expect((await listBudgets({ ctx })).budgets.filter((b) => b.provider === "brave")).toEqual([
      expect.objectContaining({ metric: "usd", period: "month", limit: 5 }),
    ]);
    s.fake.setScenario("brave", { results: results(3) });
    await search(ctx, "brave", 3);
    const brave = (await budgetStatus({ ctx })).providers.find((p) => p.provider === "brave");
    expect(brave?.free_tier).toEqual({ usd: 5, period: "month", used: 0.005, remaining: 4.995 });
  });

  it("SEARCHMUX_PRICES changes the charge, inline or from a file", async () => {
    s.fake.setScenario("brave", { results: results(3) });
    const inline = await freshTenant({ SEARCHMUX_PRICES: '{"brave": {"usd_per_request": 0.004}}' });
    await search(inline, "brave", 3);
    expect(await spentUsd(inline, "brave")).toBe(0.004);

    const file = join(dir, "prices.json");
    writeFileSync(file, JSON.stringify({ exa: { usd_per_request: 0.01, usd_per_extra_result: 0.002 } }));
    const fromFile = await freshTenant({ SEARCHMUX_PRICES: file });
    s.fake.setScenario("exa", { results: results(12) });
    expect(await estimateUsd(fromFile, "exa", 12)).toBe(0.014);
    await search(fromFile, "exa", 12);
    expect(await spentUsd(fromFile, "exa")).toBe(0.014);
  });
});
