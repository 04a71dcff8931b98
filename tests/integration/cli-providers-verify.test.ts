/**
 * `npm run smx -- providers verify`: one cheapest real call per provider the operator's environment
 * configures, through its adapter, against the fake provider server; the exit code says whether every one
 * answered as its adapter expects.
 */
import { rmSync } from "node:fs";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FETCH_WIRES, PROBE_PAGE_WIRES } from "@/tests/fakes/fetch-wires";
import { PAPER_WIRES } from "@/tests/fakes/paper-wires";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { operatorCli } from "@/tests/support/compile-cli";
import { newDataDir } from "@/tests/support/database";
import { fakeProviderEnv } from "@/tests/support/provider-env";

const BRAVE_KEY = "brave-operator-key-1234";
const PERPLEXITY_KEY = "pplx-operator-key-5678";
const TAVILY_KEY = "tvly-operator-key-9012";

/** The keyless providers (and those whose key is optional) a deployment without configuration has. */
const KEYLESS = [
  "arxiv",
  "duckduckgo",
  "github",
  "jina",
  "openalex",
  "pubmed",
  "semantic_scholar",
  "wikipedia",
];

interface Check {
  provider: string;
  kind: string;
  ok: boolean;
  reason: string | null;
  usd: number;
}

describe("npm run smx -- providers verify", () => {
  let fake: FakeProviders;
  let env: NodeJS.ProcessEnv;
  // The operator context needs no database; a data directory of its own keeps the checkout's out of it.
  const dataDir = newDataDir("smx-cli-verify-");

  const cli = operatorCli();
  const smx = (...args: string[]) => cli.run(args, env);
  const checksOf = (stdout: string): Check[] => JSON.parse(stdout).checks;

  beforeAll(async () => {
    await cli.build();
    fake = await startFakeProviders({ ...FETCH_WIRES, ...PAPER_WIRES, ...PROBE_PAGE_WIRES });
    env = {
      ...process.env,
      SEARCHMUX_DATA_DIR: dataDir,
      DATABASE_URL: "",
      ...fakeProviderEnv(fake.url),
      BRAVE_API_KEY: BRAVE_KEY,
      PERPLEXITY_API_KEY: PERPLEXITY_KEY,
      TAVILY_API_KEY: TAVILY_KEY,
      // Tavily's cheapest call is an extract (a fetch), served by another wire than its search.
      TAVILY_BASE_URL: `${fake.url}/fetch-tavily`,
    };
  }, 180_000);
  afterAll(async () => {
    cli.remove();
    await fake?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });
  beforeEach(() => {
    fake.resetScenarios();
    fake.clearRequests();
  });

  it("makes one cheapest call per configured provider, and exits 0 when each answered as expected", async () => {
    const { code, stdout, stderr } = await smx("providers", "verify", "--json");
    expect(stderr).not.toContain("failing");
    expect(code).toBe(0);
    const checks = checksOf(stdout);
    // Unconfigured ones (no key: Exa, Kagi, Serper, …; no URL: SearXNG, the operator model) are not listed,
    // nor the direct fetcher, which is no provider's API.
    expect(checks.map((c) => c.provider)).toEqual([...KEYLESS, "brave", "perplexity", "tavily"].sort());
    expect(checks.every((c) => c.ok)).toBe(true);
    const byId = new Map(checks.map((c) => [c.provider, c]));
    // The cheapest kind: Tavily's extract ($0.0016) rather than its search ($0.008); a tie goes to papers.
    expect(byId.get("tavily")).toMatchObject({ kind: "fetch", usd: 0.0016 });
    expect(byId.get("arxiv")).toMatchObject({ kind: "papers", usd: 0 });
    expect(byId.get("brave")).toMatchObject({ kind: "search", usd: 0.005 });
    expect(JSON.parse(stdout).total_usd).toBeCloseTo(0.005 + 0.005 + 0.0016, 6);

    // One request each, the fewest results allowed, with the operator's key.
    expect(fake.requests("brave").map((r) => [r.query.count, r.headers["x-subscription-token"]])).toEqual([
      ["1", BRAVE_KEY],
    ]);
    expect(fake.requests("perplexity").map((r) => (r.body as { max_results: number }).max_results)).toEqual([
      1,
    ]);
    expect(fake.requests("fetch-tavily").map((r) => r.path)).toEqual(["/extract"]);
    expect(fake.requests("fetch-github").map((r) => r.path)).toEqual(["/repos/octocat/Hello-World/readme"]);
    for (const unconfigured of ["exa", "kagi", "serper", "searxng"]) {
      expect(fake.requests(unconfigured)).toEqual([]);
    }
  }, 60_000);

  it("prints a table of provider, ok or why, ms and usd, with the total spent", async () => {
    const { code, stdout } = await smx("providers", "verify");
    expect(code).toBe(0);
    const [header, ...rows] = stdout.trim().split("\n");
    expect(header).toMatch(/^provider +\| ok\/why +\| +ms \| usd$/);
    expect(rows.find((row) => row.startsWith("brave "))).toMatch(/^brave +\| ok +\| +\d+ \| \$0\.005$/);
    expect(rows.at(-1)).toMatch(/^total +\| +\| +\| \$0\.0116$/);
  }, 60_000);

  it("names a provider that refuses the key, without showing any key", async () => {
    fake.setScenario("brave", { expectedApiKey: "another-key" });
    const { code, stdout, stderr } = await smx("providers", "verify");
    expect(code).not.toBe(0);
    expect(stderr).toContain("failing: brave");
    expect(stdout).toMatch(/^brave +\| bad_key: /m);
    // A refused key is not billed.
    expect(stdout).toMatch(/^brave +\| bad_key: .* \| \$0$/m);
    expect(stdout).toMatch(/^wikipedia +\| ok /m);
    for (const key of [BRAVE_KEY, PERPLEXITY_KEY, TAVILY_KEY]) expect(stdout + stderr).not.toContain(key);
  }, 60_000);

  it("reports an answer of another shape than the adapter's schema as invalid_response", async () => {
    // Perplexity's search answer without its `results` field.
    fake.setScenario("perplexity", { body: { id: "search-1", server_time: null } });
    const { code, stdout, stderr } = await smx("providers", "verify", "--json");
    expect(code).not.toBe(0);
    expect(stderr).toContain("failing: perplexity");
    const failed = checksOf(stdout).filter((c) => !c.ok);
    expect(failed).toEqual([expect.objectContaining({ provider: "perplexity", reason: "invalid_response" })]);
  }, 60_000);

  it("checks one provider with --provider, and refuses one it cannot check", async () => {
    const one = await smx("providers", "verify", "--provider", "brave", "--json");
    expect(one.code).toBe(0);
    expect(checksOf(one.stdout).map((c) => c.provider)).toEqual(["brave"]);
    expect(fake.requests("wikipedia")).toEqual([]);

    const unknown = await smx("providers", "verify", "--provider", "nosuch");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown provider 'nosuch'");

    const unconfigured = await smx("providers", "verify", "--provider", "exa");
    expect(unconfigured.code).toBe(2);
    expect(unconfigured.stderr).toContain("'exa' is not configured here: set EXA_API_KEY");
    expect(fake.requests("exa")).toEqual([]);
  }, 60_000);
});
