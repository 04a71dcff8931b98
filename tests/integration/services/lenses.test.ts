import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog, lenses } from "@/lib/db/schema";
import { normalizeDomain } from "@/lib/engine/search/domains";
import { setKey } from "@/lib/services/keys/set-key";
import { BUILT_IN_LENSES } from "@/lib/services/lenses/built-in-lenses";
import { deleteLens } from "@/lib/services/lenses/delete-lens";
import { listLenses } from "@/lib/services/lenses/list-lenses";
import { setLens } from "@/lib/services/lenses/set-lens";
import { webSearch } from "@/lib/services/search/web-search";
import { primaryTarget } from "@/tests/support/database";
import { fakeBaseUrls, serviceSuite } from "@/tests/support/service-suite";

const WIKI = { name: "my-wiki", domains: ["docs.example.org", "https://www.KB.example.com/start"] };
const WIKI_DOMAINS = ["docs.example.org", "kb.example.com"];
const inLens = (path: string) => ({
  title: `In lens ${path}`,
  url: `https://docs.example.org/${path}`,
  snippet: "Lens result.",
});

it("ships built-in lenses whose domains are normalised host names", () => {
  expect(BUILT_IN_LENSES.map((lens) => lens.name)).toEqual(["docs", "academic", "news", "forums", "code"]);
  for (const lens of BUILT_IN_LENSES) {
    expect(lens.domains.length).toBeGreaterThan(10);
    for (const domain of lens.domains) expect(normalizeDomain(domain)).toBe(domain);
  }
});

describe.each(primaryTarget())("lenses on $name", (target) => {
  const s = serviceSuite(target, {
    env: (fake) => fakeBaseUrls(fake, ["tavily", "duckduckgo", "wikipedia"]),
  });
  beforeAll(async () => {
    await setKey({ ctx: s.a, input: { provider: "tavily", key: "tvly-tenant-a-secret" } });
  });

  it("creates, lists, replaces and deletes a tenant's lens, with audit rows; admin scope for writes", async () => {
    const created = await setLens({ ctx: s.a, input: { ...WIKI, time_range: "week" } });
    expect(created).toEqual({
      name: "my-wiki",
      description: "",
      domains: WIKI_DOMAINS,
      defaults: { time_range: "week" },
      source: "tenant",
    });
    const listed = await listLenses({ ctx: s.a });
    expect(listed.map((l) => `${l.name}:${l.source}`)).toEqual([
      "academic:built_in",
      "code:built_in",
      "docs:built_in",
      "forums:built_in",
      "my-wiki:tenant",
      "news:built_in",
    ]);
    const replaced = await setLens({ ctx: s.a, input: { ...WIKI, description: "Our wiki" } });
    expect(replaced).toMatchObject({ description: "Our wiki", defaults: {} });

    const search = { ...s.a, scopes: ["search" as const] };
    expect((await listLenses({ ctx: search })).length).toBe(6);
    await expect(setLens({ ctx: search, input: WIKI })).rejects.toMatchObject({ code: "forbidden" });
    await expect(deleteLens({ ctx: search, input: { name: "my-wiki" } })).rejects.toMatchObject({
      code: "forbidden",
    });

    expect(await deleteLens({ ctx: s.a, input: { name: "my-wiki" } })).toEqual({
      name: "my-wiki",
      deleted: true,
    });
    await expect(deleteLens({ ctx: s.a, input: { name: "my-wiki" } })).rejects.toMatchObject({
      code: "not_found",
    });
    const audit = await s.database.db.withTenant(s.a.tenantId, (tx) =>
      tx.select({ action: auditLog.action }).from(auditLog).where(eq(auditLog.targetType, "lens")),
    );
    expect(audit.map((row) => row.action).sort()).toEqual(["lens.create", "lens.delete", "lens.replace"]);
  });

  it("keeps tenants apart: B neither sees, uses nor deletes A's lens", async () => {
    await setLens({ ctx: s.a, input: WIKI });
    expect((await listLenses({ ctx: s.b })).map((l) => l.name)).not.toContain("my-wiki");
    await expect(deleteLens({ ctx: s.b, input: { name: "my-wiki" } })).rejects.toMatchObject({
      code: "not_found",
    });
    const unknown = webSearch({
      ctx: s.b,
      input: { query: "q", lens: "my-wiki", providers: ["duckduckgo"] },
    });
    await expect(unknown).rejects.toMatchObject({
      code: "invalid_input",
      details: { available: ["academic", "code", "docs", "forums", "news"] },
    });
    // Row Level Security agrees with the tenant filter.
    const seenByB = await s.database.db.withTenant(s.b.tenantId, (tx) => tx.select().from(lenses));
    expect(seenByB).toEqual([]);
    expect((await listLenses({ ctx: s.a })).map((l) => l.name)).toContain("my-wiki");
    await deleteLens({ ctx: s.a, input: { name: "my-wiki" } });
  });

  it("lets a tenant lens replace a built-in one until it is deleted; built-ins cannot be deleted", async () => {
    await setLens({ ctx: s.a, input: { name: "docs", domains: ["docs.example.org"] } });
    expect((await listLenses({ ctx: s.a })).find((l) => l.name === "docs")).toMatchObject({
      source: "tenant",
      domains: ["docs.example.org"],
    });
    await deleteLens({ ctx: s.a, input: { name: "docs" } });
    expect((await listLenses({ ctx: s.a })).find((l) => l.name === "docs")?.source).toBe("built_in");
    await expect(deleteLens({ ctx: s.a, input: { name: "news" } })).rejects.toThrow(/built-in lens/);
  });

  it("rejects lenses without domains, with bad domains or bad names", async () => {
    for (const input of [
      { name: "empty", domains: [] },
      { name: "bad", domains: ["not a domain"] },
      { name: "Bad Name!", domains: ["example.com"] },
      { name: "x", domains: ["example.com"], unknown: 1 },
    ]) {
      await expect(setLens({ ctx: s.a, input: input as never })).rejects.toMatchObject({
        code: "invalid_input",
      });
    }
  });

  it("scopes every provider: natively, by site: operators, or by post-filter; defaults fill unset options", async () => {
    await setLens({ ctx: s.a, input: { ...WIKI, time_range: "week" } });
    s.fake.setScenario("tavily", { results: [inLens("install")] });
    s.fake.setScenario("duckduckgo", { results: [inLens("usage")] });
    // Wikipedia has no domain filter: its en.wikipedia.org results are dropped by the post-filter.
    const result = await webSearch({
      ctx: s.a,
      input: { query: "setup guide", lens: "my-wiki", providers: ["tavily", "duckduckgo", "wikipedia"] },
    });
    expect(result.results.map((r) => r.url).sort()).toEqual([
      "https://docs.example.org/install",
      "https://docs.example.org/usage",
    ]);
    expect(s.fake.requests("tavily")[0]?.body).toMatchObject({
      include_domains: WIKI_DOMAINS,
      time_range: "week",
    });
    expect(s.fake.requests("duckduckgo")[0]?.body).toMatchObject({
      q: "setup guide site:docs.example.org OR site:kb.example.com",
    });
    expect(s.fake.requests("wikipedia")[0]?.query.srsearch).toBe("setup guide");

    s.fake.clearRequests();
    await webSearch({
      ctx: s.a,
      input: {
        query: "setup guide",
        lens: "my-wiki",
        providers: ["tavily"],
        time_range: "year",
        include_domains: ["extra.example.net"],
      },
    });
    expect(s.fake.requests("tavily")[0]?.body).toMatchObject({
      include_domains: [...WIKI_DOMAINS, "extra.example.net"],
      time_range: "year",
    });

    s.fake.clearRequests();
    await webSearch({ ctx: s.a, input: { query: "attention", lens: "academic", providers: ["tavily"] } });
    expect(s.fake.requests("tavily")[0]?.body).toMatchObject({
      include_domains: expect.arrayContaining(["arxiv.org", "openreview.net"]),
    });
    await deleteLens({ ctx: s.a, input: { name: "my-wiki" } });
  });
});
