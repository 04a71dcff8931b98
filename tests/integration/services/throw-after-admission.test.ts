/**
 * A tool call whose later step throws after its provider calls were admitted and ran: every reservation
 * is closed by the call itself — the billed ones kept — so the sweep has nothing left to refund.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { reservations } from "@/lib/db/schema";
import { sweepExpiredReservations } from "@/lib/pipeline/budgets/admission";
import type { Platform, TenantContext } from "@/lib/pipeline/context";
import { answer } from "@/lib/services/answer/answer";
import { budgetStatus } from "@/lib/services/budgets/budget-status";
import { setKey } from "@/lib/services/keys/set-key";
import { webSearch } from "@/lib/services/search/web-search";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { ANSWER_PREFIX, ANSWER_WIRES } from "@/tests/fakes/answer-wires";
import { FETCH_WIRES } from "@/tests/fakes/fetch-wires";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { SNIPPET_MODEL, SNIPPET_MODEL_WIRES } from "@/tests/fakes/snippet-model-wire";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";

/** The later steps made to throw: the answers' agreement, and the include_content stage. */
const failing = vi.hoisted(() => ({ agreement: false, contents: false }));
vi.mock("@/lib/engine/answer/agreement", async (original) => {
  const actual = await original<typeof import("@/lib/engine/answer/agreement")>();
  return {
    ...actual,
    computeAgreement: (...args: Parameters<typeof actual.computeAgreement>) => {
      if (failing.agreement) throw new Error("agreement step failed");
      return actual.computeAgreement(...args);
    },
  };
});
vi.mock("@/lib/engine/grounding/page-contents", async (original) => {
  const actual = await original<typeof import("@/lib/engine/grounding/page-contents")>();
  return {
    ...actual,
    fetchPageContents: async (...args: Parameters<typeof actual.fetchPageContents>) => {
      if (failing.contents) throw new Error("content stage failed");
      return actual.fetchPageContents(...args);
    },
  };
});

const PAGE = `<!DOCTYPE html><html><head><title>Page</title></head><body><article><h1>Page</h1>${"<p>ripgrep searches directories recursively for a regex pattern and respects gitignore rules.</p>".repeat(4)}</article></body></html>`;

describe.each(databaseTargets())("a tool call that throws after admission on $name", (target) => {
  let t: TestDatabase;
  let fake: FakeProviders;
  let site: http.Server;
  let origin: string;
  let platform: Platform;

  const newTenant = async () =>
    tenantCtx(platform, (await createTenant({ ctx: systemCtx(platform), input: { name: "throws" } })).id);
  /** Read as every reader of usage reads: once the call's reservations are closed (after it answered). */
  const statuses = async (ctx: TenantContext) => {
    await ctx.usage.flush();
    return (await ctx.db.withTenant(ctx.tenantId, (tx) => tx.select().from(reservations)))
      .map((r) => `${r.provider}:${r.status}`)
      .sort();
  };
  const requestsOf = async (ctx: TenantContext, provider: string) =>
    (await budgetStatus({ ctx })).providers.find((p) => p.provider === provider)?.requests.lifetime;
  /** The sweep as it would run once every reservation of this call has expired. */
  const sweepLater = () => sweepExpiredReservations({ db: t.db, now: () => new Date(Date.now() + 3600_000) });

  beforeAll(async () => {
    t = await target.create();
    fake = await startFakeProviders({ ...ANSWER_WIRES, ...FETCH_WIRES, ...SNIPPET_MODEL_WIRES });
    site = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(PAGE);
    });
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    platform = testPlatform(t.db, {
      env: {
        PERPLEXITY_BASE_URL: fake.baseUrlFor(ANSWER_PREFIX.perplexity),
        SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1",
        DUCKDUCKGO_BASE_URL: fake.baseUrlFor("duckduckgo"),
        SEARCHMUX_LLM_BASE_URL: fake.baseUrlFor(SNIPPET_MODEL),
        SEARCHMUX_LLM_MODEL: "snippet-writer",
        SEARCHMUX_LLM_API_KEY: "operator-llm-key-1234",
      },
    });
  });
  afterAll(async () => {
    site?.closeAllConnections();
    site?.close();
    await fake?.close();
    await t?.cleanup();
  });
  beforeEach(() => {
    failing.agreement = false;
    failing.contents = false;
    fake.resetScenarios();
  });

  it("answer: the provider call that ran stays charged, and the sweep refunds nothing", async () => {
    const ctx = await newTenant();
    await setKey({ ctx, input: { provider: "perplexity", key: "pplx-throws-key" } });
    failing.agreement = true;

    await expect(
      answer({ ctx, input: { query: "Which async runtime?", providers: ["perplexity"] } }),
    ).rejects.toThrow(/agreement step failed/);

    expect(fake.requests(ANSWER_PREFIX.perplexity)).toHaveLength(1);
    expect(await statuses(ctx)).toEqual(["perplexity:settled"]);
    expect(await sweepLater()).toBe(0);
    expect(await requestsOf(ctx, "perplexity")).toBe(1);
  });

  it("web_search: the search and the grounding stage still in flight are settled, nothing left open", async () => {
    const ctx = await newTenant();
    fake.setScenario("duckduckgo", {
      results: [{ title: "Page", url: `${origin}/a`, snippet: "Fused snippet." }],
    });
    // The model is slow, so its call is still running when the content stage throws.
    fake.setScenario(SNIPPET_MODEL, { latencyMs: 300 });
    failing.contents = true;

    await expect(
      webSearch({
        ctx,
        input: {
          query: "ripgrep",
          providers: ["duckduckgo"],
          grounded_snippets: true,
          include_content: true,
        },
      }),
    ).rejects.toThrow(/content stage failed/);

    expect(await statuses(ctx)).toEqual(["duckduckgo:settled", "llm:settled"]);
    expect(fake.requests(SNIPPET_MODEL)).toHaveLength(1);
    expect(await sweepLater()).toBe(0);
    expect(await requestsOf(ctx, "duckduckgo")).toBe(1);
    expect(await requestsOf(ctx, "llm")).toBe(1);
  });
});
