import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Platform, TenantContext } from "@/lib/pipeline/context";
import { budgetStatus } from "@/lib/services/budgets/budget-status";
import { fetchPage } from "@/lib/services/fetch/fetch-page";
import { setKey } from "@/lib/services/keys/set-key";
import { paperFullText } from "@/lib/services/papers/paper-full-text";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { FETCH_WIRES, fetchWireId } from "@/tests/fakes/fetch-wires";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { databaseTargets, primaryTarget, type TestDatabase } from "@/tests/support/database";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";
import { fakeProviderEnv } from "@/tests/support/provider-env";
import { makePdf } from "@/tests/unit/fetch/pdf-fixture";

const ARTICLE = readFileSync("tests/fakes/pages/blog-post.html", "utf8");
const NOT_FOUND = `<!DOCTYPE html><html><head><title>404 — Page not found</title></head><body><h1>404 — Page not found</h1><p>${"Nothing lives at this address. ".repeat(12)}</p></body></html>`;
const CHALLENGE = `<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><h1>Checking your browser before accessing the site.</h1><p>Enable JavaScript and cookies to continue.</p></body></html>`;

describe.each(primaryTarget())("fetch for a tenant on $name", (target) => {
  let t: TestDatabase;
  let fake: FakeProviders;
  let site: http.Server;
  let origin: string;
  let platform: Platform;
  let tenant: TenantContext;

  beforeAll(async () => {
    t = await target.create();
    fake = await startFakeProviders(FETCH_WIRES);
    site = http.createServer((req, res) => {
      res.writeHead(req.url === "/missing" ? 404 : 200, { "content-type": "text/html; charset=utf-8" });
      res.end(req.url === "/challenge" ? CHALLENGE : req.url === "/missing" ? NOT_FOUND : ARTICLE);
    });
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    platform = testPlatform(t.db, {
      env: {
        SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1",
        JINA_READER_BASE_URL: fake.baseUrlFor(fetchWireId("jina")),
      },
    });
    tenant = tenantCtx(
      platform,
      (await createTenant({ ctx: systemCtx(platform), input: { name: "fetcher" } })).id,
    );
    await setKey({ ctx: tenant, input: { provider: "jina", key: "jina-tenant-key-1234" } });
  });
  afterAll(async () => {
    site?.close();
    await fake?.close();
    await t?.cleanup();
  });

  it("reads an ordinary page with the free direct fetcher, then serves it from the cache", async () => {
    const first = await fetchPage({ ctx: tenant, input: { url: `${origin}/post` } });
    expect(first).toMatchObject({ provider: "direct", format: "markdown", cache_hit: false });
    expect(first.content.length).toBeGreaterThan(200);
    const again = await fetchPage({ ctx: tenant, input: { url: `${origin}/post` } });
    expect(again.cache_hit).toBe(true);
    expect(again.content).toBe(first.content);
  });

  it("falls through a bot challenge to Jina Reader with the tenant's key, and charges that step", async () => {
    const result = await fetchPage({ ctx: tenant, input: { url: `${origin}/challenge`, no_cache: true } });
    expect(result.provider).toBe("jina");
    expect(result.providers_failed).toEqual([
      expect.objectContaining({ provider: "direct", reason: "bot_challenge" }),
    ]);
    expect(fake.requests(fetchWireId("jina")).at(-1)?.headers.authorization).toBe(
      "Bearer jina-tenant-key-1234",
    );
    const usage = await budgetStatus({ ctx: tenant });
    expect(usage.providers.find((p) => p.provider === "jina")?.requests.lifetime).toBe(1);
    expect(usage.providers.find((p) => p.provider === "direct")).toBeUndefined();
  });

  it("answers a page its site says does not exist as not_found with the status, paying no provider", async () => {
    fake.clearRequests();
    const single = await fetchPage({ ctx: tenant, input: { url: `${origin}/missing` } }).catch(
      (e: unknown) => e,
    );
    expect(single).toMatchObject({
      code: "not_found",
      message: expect.stringMatching(/answered HTTP 404: the page does not exist/),
      details: { status: 404 },
    });
    const batch = await fetchPage({ ctx: tenant, input: { urls: [`${origin}/post`, `${origin}/missing`] } });
    if (!("results" in batch)) throw new Error("expected a batch");
    expect(batch.results[0]).toMatchObject({ provider: "direct" });
    expect(batch.results[1]).toEqual({
      url: `${origin}/missing`,
      error: { code: "not_found", message: expect.stringContaining("HTTP 404"), status: 404 },
    });
    // Jina (the tenant's key) is the next step of the waterfall: never asked, its count still the one call of the test before.
    expect(fake.requests(fetchWireId("jina"))).toHaveLength(0);
    const usage = await budgetStatus({ ctx: tenant });
    expect(usage.providers.find((p) => p.provider === "jina")?.requests.lifetime ?? 0).toBe(1);
  });

  it("refuses private addresses unless allowlisted, and a token without the fetch scope", async () => {
    const closed = { ...tenant, env: {} };
    await expect(
      fetchPage({ ctx: closed, input: { url: `${origin}/post`, no_cache: true } }),
    ).rejects.toMatchObject({
      code: "invalid_input",
    });
    await expect(
      fetchPage({ ctx: { ...tenant, scopes: ["search"] }, input: { url: `${origin}/post` } }),
    ).rejects.toMatchObject({
      code: "forbidden",
    });
  });
});

describe("paper full text through the fetch path", () => {
  it("reads a paper's PDF by its pdf_url and refuses input without a paper", async () => {
    const [target] = databaseTargets();
    const db = await (target as NonNullable<typeof target>).create();
    const fake = await startFakeProviders(); // where the waterfall's later steps land, should they run
    const pdf = makePdf([["Attention is all you need.", "We propose the Transformer."]], "Attention");
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/pdf" });
      res.end(pdf);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const p = testPlatform(db.db, {
        env: { ...fakeProviderEnv(fake.url), SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1" },
      });
      const ctx = tenantCtx(p, (await createTenant({ ctx: systemCtx(p), input: { name: "reader" } })).id);
      const port = (server.address() as AddressInfo).port;
      const text = await paperFullText({
        ctx,
        input: { pdf_url: `http://127.0.0.1:${port}/1706.03762.pdf` },
      });
      expect(text.content).toContain("We propose the Transformer.");
      expect(text.metadata).toMatchObject({ pages: 1 });
      await expect(paperFullText({ ctx, input: {} })).rejects.toMatchObject({ code: "invalid_input" });
      await expect(paperFullText({ ctx, input: { arxiv_id: "not an id" } })).rejects.toMatchObject({
        code: "invalid_input",
      });
    } finally {
      server.close();
      await fake.close();
      await db.cleanup();
    }
  });
});
