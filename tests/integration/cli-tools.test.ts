/**
 * `npm run smx -- tool <name>`: the CLI command every tool of the table gets, with flags from the tool's
 * input schema, run as a tenant on an embedded database against the fake provider server.
 */
import { execFile } from "node:child_process";
import { rmSync } from "node:fs";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { operatorCli } from "@/tests/support/compile-cli";
import { newDataDir, stopEmbeddedServer } from "@/tests/support/database";
import { fakeProviderEnv } from "@/tests/support/provider-env";

const _run = promisify(execFile);
const dataDir = newDataDir("smx-cli-tools-");

describe("npm run smx -- tool <name>", () => {
  let fake: FakeProviders;
  let env: NodeJS.ProcessEnv;
  let tenant: string;

  const cli = operatorCli();
  const smx = (...args: string[]) => cli.run(args, env);

  beforeAll(async () => {
    await cli.build();
    fake = await startFakeProviders();
    env = { ...process.env, SEARCHMUX_DATA_DIR: dataDir, DATABASE_URL: "", ...fakeProviderEnv(fake.url) };
    tenant = (await smx("tenant", "create", "--name", "cli tools")).stdout.trim();
  }, 180_000);

  afterAll(async () => {
    cli.remove();
    await fake?.close();
    stopEmbeddedServer(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("runs a tool as the tenant with flags from its input schema and prints its REST response", async () => {
    const { code, stdout } = await smx(
      "tool",
      "web_search",
      "--tenant",
      tenant,
      "--query",
      "rust async",
      "--providers",
      "wikipedia",
      "--max-results",
      "2",
      "--no-cache",
      "--json",
    );
    expect(code).toBe(0);
    const response = JSON.parse(stdout);
    expect(response).toMatchObject({ query: "rust async", cache_hit: false });
    expect(response.providers_succeeded.map((p: { provider: string }) => p.provider)).toEqual(["wikipedia"]);
    expect(response.results.length).toBeLessThanOrEqual(2);
    expect(response).not.toHaveProperty("spans");
    expect(fake.requests("wikipedia").length).toBeGreaterThan(0);
  }, 30_000);

  it("prints the tool's text, and takes the input as JSON too", async () => {
    const { code, stdout } = await smx("tool", "budget_status", "--tenant", tenant, "--input", "{}");
    expect(code).toBe(0);
    expect(stdout).toContain("Budgets:");
    expect(stdout).toMatch(/- wikipedia: 1 request today/);
  }, 30_000);

  it("refuses input the tool's schema rejects, naming the field", async () => {
    const bad = await smx("tool", "paper_search", "--tenant", tenant, "--input", '{"query": ""}');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("query:");
    const notJson = await smx("tool", "answer", "--tenant", tenant, "--input", "[1]");
    expect(notJson.code).toBe(1);
    expect(notJson.stderr).toContain("--input must be a JSON object");
  }, 30_000);
});
