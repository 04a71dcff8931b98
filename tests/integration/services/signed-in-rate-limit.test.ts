/**
 * The playground's rate limit (#16): a signed-in user's runs are held to the limit a token of the
 * workspace has (its override, else the operator default), per user and workspace.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Platform, TenantContext } from "@/lib/pipeline/context";
import { limitSignedInUser } from "@/lib/pipeline/rate-limit/limits";
import { updateTenant } from "@/lib/services/tenants/update-tenant";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { testPlatform } from "@/tests/support/platform";
import { twoTenants } from "@/tests/support/two-tenants";

describe.each(databaseTargets())("a signed-in user's rate limit on $name", (target) => {
  let t: TestDatabase;
  let platform: Platform;
  let a: TenantContext;
  let b: TenantContext;

  beforeAll(async () => {
    t = await target.create();
    platform = testPlatform(t.db, { env: { SEARCHMUX_RATE_LIMIT_RPM: "3" } });
    ({ a, b } = await twoTenants(platform));
    await updateTenant({ ctx: a, input: { rateLimitRpm: 2 } });
  });
  afterAll(async () => t?.cleanup());

  it("follows the workspace's per-token limit, per user, with a Retry-After", async () => {
    const user = randomUUID();
    const runs = [];
    for (let i = 0; i < 3; i++) runs.push(await limitSignedInUser(a, user));
    expect(runs.map((r) => r.ok)).toEqual([true, true, false]);
    expect(runs[2]).toMatchObject({ limit: 2, remaining: 0 });
    expect(runs[2]?.retryAfter).toBeGreaterThanOrEqual(1);
    // Another user of the workspace has a window of their own.
    expect((await limitSignedInUser(a, randomUUID())).ok).toBe(true);
  });

  it("takes the operator default in a workspace without an override", async () => {
    const user = randomUUID();
    const runs = [];
    for (let i = 0; i < 4; i++) runs.push((await limitSignedInUser(b, user)).ok);
    expect(runs).toEqual([true, true, true, false]);
  });
});
