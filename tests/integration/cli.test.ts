import { rmSync } from "node:fs";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "@/lib/db/client";
import { apiTokens, tenants } from "@/lib/db/schema";
import { hashToken, hasValidChecksum } from "@/lib/services/tokens/token-format";
import { operatorCli } from "@/tests/support/compile-cli";
import { newDataDir, stopEmbeddedServer } from "@/tests/support/database";

const dataDir = newDataDir("smx-cli-");
const env = { ...process.env, SEARCHMUX_DATA_DIR: dataDir, DATABASE_URL: "" };
const cli = operatorCli();

/** `database` is the line the CLI starts stderr with (which database it uses), `stderr` the rest. */
async function smx(...args: string[]) {
  const outcome = await cli.run(args, env);
  const [database = "", ...rest] = outcome.stderr.trim().split("\n");
  return { code: outcome.code, stdout: outcome.stdout.trim(), database, stderr: rest.join("\n") };
}

describe("operator CLI on the embedded database, while another process uses it", () => {
  let app: Database;
  beforeAll(async () => {
    await cli.build();
    app = await createDatabase({ driver: "embedded", dataDir }); // stands in for the running app
  }, 180_000);
  afterAll(async () => {
    cli.remove();
    await app.close();
    stopEmbeddedServer(dataDir);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("creates a tenant and a token that the running app sees", async () => {
    const tenant = await smx("tenant", "create", "--name", "demo");
    expect(tenant).toMatchObject({ code: 0, database: `database: embedded at ${dataDir}`, stderr: "" });
    expect(tenant.stdout).toMatch(/^[0-9a-f-]{36}$/);

    const token = await smx(
      "token",
      "create",
      "--tenant",
      tenant.stdout,
      "--name",
      "ci",
      "--scopes",
      "search,fetch",
    );
    expect(token.code).toBe(0);
    expect(hasValidChecksum(token.stdout)).toBe(true);

    const [row] = await app.withTenant(tenant.stdout, (tx) =>
      tx
        .select()
        .from(apiTokens)
        .where(eq(apiTokens.tokenHash, hashToken(token.stdout))),
    );
    expect(row).toMatchObject({ name: "ci", scopes: ["search", "fetch"] });
    const [named] = await app.withTenant(tenant.stdout, (tx) =>
      tx.select({ name: tenants.name }).from(tenants),
    );
    expect(named?.name).toBe("demo");
  });

  it("fails with a clear message and a non-zero exit on bad input", async () => {
    expect(await smx("tenant", "create")).toMatchObject({ code: 1, stderr: "error: --name is required" });
    const missing = await smx(
      "token",
      "create",
      "--tenant",
      "00000000-0000-4000-8000-000000000000",
      "--name",
      "x",
    );
    expect(missing).toMatchObject({ code: 1, stderr: "error: tenant not found" });
    const usage = await smx("frobnicate");
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("tenant create --name N");
  });

  it("prints the price table calls are charged at, the operator's overrides marked", async () => {
    const prices = await cli.run(["prices"], {
      ...env,
      SEARCHMUX_PRICES: '{"kagi": {"usd_per_request": 0.02}}',
    });
    expect(prices.code).toBe(0);
    expect(prices.stdout).toContain(
      "exa: $0.007, $0.001 each beyond 10; free $10.00 per month (https://exa.ai/docs/reference/pricing, ",
    );
    expect(prices.stdout).toContain("kagi: $0.02 [operator override: usd_per_request]");
  });

  it("refuses to start with a price override that does not parse, naming its entry and field", async () => {
    const refused = await cli.run(["tenant", "create", "--name", "priced"], {
      ...env,
      SEARCHMUX_PRICES: '{"exa": {"usd_per_extra_result": "one"}}',
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^searchmux: SEARCHMUX_PRICES: exa\.usd_per_extra_result: /);
  });
});
