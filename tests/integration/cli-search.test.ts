import { execFile } from "node:child_process";
import { rmSync } from "node:fs";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NEWS_WIRES } from "@/tests/fakes/news-wires";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { operatorCli } from "@/tests/support/compile-cli";
import { newDataDir, stopEmbeddedServer } from "@/tests/support/database";
import { fakeProviderEnv } from "@/tests/support/provider-env";

const _run = promisify(execFile);

describe("npm run smx -- search", () => {
  let fake: FakeProviders;
  let env: NodeJS.ProcessEnv;

  const cli = operatorCli();
  const smx = (...args: string[]) => cli.run(args, env);

  beforeAll(async () => {
    await cli.build();
    fake = await startFakeProviders(NEWS_WIRES);
    // Keyless providers plus one operator key; every base URL points at the fake server.
    env = {
      ...process.env,
      DATABASE_URL: "",
      ...fakeProviderEnv(fake.url),
      TAVILY_API_KEY: "tvly-operator-key",
    };
  }, 180_000);
  afterAll(async () => {
    cli.remove();
    await fake?.close();
  });

  it("prints fused results from the keyless providers and those with an operator key", async () => {
    fake.setScenario("tavily", {
      results: [
        {
          title: "Async in depth",
          url: "https://tokio.rs/tokio/tutorial/async",
          snippet: "How async works in Rust.",
        },
        { title: "Async book", url: "https://rust-lang.github.io/async-book/", snippet: "The async book." },
      ],
    });
    const { code, stdout } = await smx("search", "rust async", "--json");
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.providers_succeeded.map((p: { provider: string }) => p.provider).sort()).toEqual([
      "duckduckgo",
      "tavily",
      "wikipedia",
    ]);
    const urls = result.results.map((r: { url: string }) => r.url);
    expect(urls).toContain("https://tokio.rs/tokio/tutorial/async");
    expect(fake.requests("tavily").at(-1)?.headers.authorization).toBe("Bearer tvly-operator-key");
  });

  it("prints the tool's text: numbered results, then the providers", async () => {
    const { code, stdout } = await smx("search", "rust async", "--providers", "tavily");
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^Web results for "rust async": 2 in \d+ ms\n\n1\. Async in depth\n {3}https:\/\/tokio\.rs\/tokio\/tutorial\/async/,
    );
    expect(stdout).toContain("Providers ok: tavily (2)");
  });

  it("refuses a provider that has no key, and reports every failure reason", async () => {
    const noKey = await smx("search", "x", "--providers", "brave");
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toContain("not available without a key: brave");

    fake.setScenario("tavily", { status: 500 });
    const failing = await smx("search", "x", "--providers", "tavily");
    expect(failing.code).toBe(1);
    expect(failing.stderr).toContain("every provider failed (tavily: http_error)");
  });

  it("searches news for several queries with a language", async () => {
    fake.resetScenarios();
    fake.clearRequests();
    const { code, stdout } = await smx(
      "search",
      "--queries",
      "rust news,go news",
      "--topic",
      "news",
      "--language",
      "de",
      "--json",
    );
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.results_by_query.map((q: { query: string }) => q.query)).toEqual(["rust news", "go news"]);
    // Tavily's news gives dates, not publishers.
    expect(result.results_by_query[0].results[0].published_at).toBe("2026-03-01T08:00:00.000Z");
    expect(result.results_by_query[0].results[0]).not.toHaveProperty("source");
    expect(result.providers_skipped).toEqual([
      { provider: "duckduckgo", reason: "no_news_search" },
      { provider: "wikipedia", reason: "no_news_search" },
    ]);
    const sent = fake.requests("tavily").map((r) => r.body as { query: string; topic: string });
    expect(sent.map((b) => [b.query, b.topic]).sort()).toEqual([
      ["go news", "news"],
      ["rust news", "news"],
    ]);
  });

  it("lets an operator create a tenant, store a key, set a budget and watch usage change", async () => {
    const dataDir = newDataDir("smx-cli-usage-");
    const base = env;
    env = { ...base, SEARCHMUX_DATA_DIR: dataDir, TAVILY_API_KEY: "" };
    try {
      fake.resetScenarios();
      fake.clearRequests();
      const tenant = (await smx("tenant", "create", "--name", "ops")).stdout.trim();
      expect(
        (await smx("key", "set", "--tenant", tenant, "--provider", "tavily", "--key", "tvly-tenant-key-9876"))
          .stdout,
      ).toContain("tavily key stored (…9876)");
      await smx(
        "budget",
        "set",
        "--tenant",
        tenant,
        "--provider",
        "tavily",
        "--metric",
        "requests",
        "--period",
        "day",
        "--limit",
        "1",
      );
      const first = await smx(
        "search",
        "ops query",
        "--tenant",
        tenant,
        "--providers",
        "tavily,wikipedia",
        "--json",
      );
      expect(first.code).toBe(0);
      expect(fake.requests("tavily").at(-1)?.headers.authorization).toBe("Bearer tvly-tenant-key-9876");
      const second = await smx(
        "search",
        "another query",
        "--tenant",
        tenant,
        "--providers",
        "tavily,wikipedia",
        "--json",
      );
      expect(JSON.parse(second.stdout).providers_failed).toEqual([
        expect.objectContaining({ provider: "tavily", reason: "budget_exhausted" }),
      ]);
      const usage = JSON.parse((await smx("usage", "--tenant", tenant, "--json")).stdout);
      expect(usage.budgets).toEqual([
        // The new workspace's spend cap, charged Tavily's $0.008.
        expect.objectContaining({ provider: "*", metric: "usd", period: "month", limit: 10, used: 0.008 }),
        expect.objectContaining({ provider: "tavily", period: "day", used: 1, remaining: 0 }),
        // The free tier (Tavily: 1,000 credits a month, $8) was pre-filled as a budget with the key.
        expect.objectContaining({
          provider: "tavily",
          metric: "usd",
          period: "month",
          limit: 8,
          used: 0.008,
        }),
      ]);
      expect(
        usage.providers.find((p: { provider: string }) => p.provider === "wikipedia").requests.today,
      ).toBe(2);
    } finally {
      env = base;
      stopEmbeddedServer(dataDir);
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
