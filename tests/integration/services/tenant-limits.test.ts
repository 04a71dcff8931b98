/**
 * What open sign-up lets one workspace take (security #14): the per-token rate a workspace may set is
 * capped by SEARCHMUX_RATE_LIMIT_MAX_RPM (and an override stored above it is clamped), and a workspace
 * holds at most SEARCHMUX_MAX_TOKENS_PER_TENANT active tokens.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toErrorResponse } from "@/lib/api/errors";
import { createMemoryKv } from "@/lib/kv/memory";
import type { Env } from "@/lib/pipeline/capabilities";
import type { TenantContext } from "@/lib/pipeline/context";
import { limitToken } from "@/lib/pipeline/rate-limit/limits";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { updateTenant } from "@/lib/services/tenants/update-tenant";
import { createToken } from "@/lib/services/tokens/create-token";
import { revokeToken } from "@/lib/services/tokens/revoke-token";
import { verifyToken } from "@/lib/services/tokens/verify-token";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";

/** The HTTP status and message a verb's rejection becomes on REST. */
async function asHttp(promise: Promise<unknown>) {
  const error = await promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (rejection: unknown) => rejection,
  );
  const response = toErrorResponse(error, "test");
  const body = (await response.json()) as { error: { code: string; message: string } };
  return { status: response.status, ...body.error };
}

describe.each(databaseTargets())("tenant limits on $name", (target) => {
  let t: TestDatabase;

  beforeAll(async () => {
    t = await target.create();
  });
  afterAll(async () => t?.cleanup());

  async function workspace(env: Env, now?: () => Date): Promise<TenantContext> {
    const platform = testPlatform(t.db, { env, ...(now && { now }) });
    const tenant = await createTenant({ ctx: systemCtx(platform), input: { name: `l-${randomUUID()}` } });
    return tenantCtx(platform, tenant.id);
  }

  describe("the rate-limit ceiling", () => {
    it("refuses a per-token rate above the ceiling with a 400 naming the variable", async () => {
      const ctx = await workspace({ SEARCHMUX_RATE_LIMIT_MAX_RPM: "300" });
      expect(await asHttp(updateTenant({ ctx, input: { rateLimitRpm: 301 } }))).toMatchObject({
        status: 400,
        code: "invalid_input",
        message:
          "rateLimitRpm: at most 300 requests per minute (the operator's ceiling, SEARCHMUX_RATE_LIMIT_MAX_RPM)",
      });
      expect((await updateTenant({ ctx, input: { rateLimitRpm: 300 } })).rateLimitRpm).toBe(300);
      expect((await updateTenant({ ctx, input: { rateLimitRpm: null } })).rateLimitRpm).toBeNull();

      // 600 by default; never below the operator's own default rate.
      const byDefault = await workspace({});
      await expect(updateTenant({ ctx: byDefault, input: { rateLimitRpm: 601 } })).rejects.toMatchObject({
        code: "invalid_input",
      });
      const highDefault = await workspace({ SEARCHMUX_RATE_LIMIT_RPM: "1000" });
      expect((await updateTenant({ ctx: highDefault, input: { rateLimitRpm: 1000 } })).rateLimitRpm).toBe(
        1000,
      );
    });

    it("clamps an override stored above a ceiling lowered since", async () => {
      const before = await workspace({ SEARCHMUX_RATE_LIMIT_MAX_RPM: "100000" });
      await updateTenant({ ctx: before, input: { rateLimitRpm: 5000 } });
      const { token } = await createToken({ ctx: before, input: { name: "fast" } });

      const env = { SEARCHMUX_RATE_LIMIT_RPM: "2", SEARCHMUX_RATE_LIMIT_MAX_RPM: "3" };
      const platform = testPlatform(t.db, { env, kv: createMemoryKv() });
      const verified = await verifyToken({ ctx: platform, input: { token } });
      if (!verified) throw new Error("token did not verify");
      expect(verified.rateLimitRpm).toBe(5000);
      const decisions = [];
      for (let i = 0; i < 5; i++) decisions.push((await limitToken(platform, verified)).ok);
      expect(decisions).toEqual([true, true, true, false, false]);
      await platform.kv.close();
    });
  });

  describe("the token cap", () => {
    const capped = { SEARCHMUX_MAX_TOKENS_PER_TENANT: "3" };

    it("refuses the token past the cap with a 409; revoked and expired ones do not count", async () => {
      let now = new Date();
      const ctx = await workspace(capped, () => now);
      const first = await createToken({ ctx, input: { name: "one" } });
      await createToken({ ctx, input: { name: "two", expiresAt: new Date(now.getTime() + 3600_000) } });
      await createToken({ ctx, input: { name: "three" } });
      expect(await asHttp(createToken({ ctx, input: { name: "four" } }))).toMatchObject({
        status: 409,
        code: "conflict",
        message:
          "this workspace already has 3 active tokens, the most allowed (SEARCHMUX_MAX_TOKENS_PER_TENANT); revoke one first",
      });

      await revokeToken({ ctx, input: { id: first.id } });
      await createToken({ ctx, input: { name: "four" } });
      await expect(createToken({ ctx, input: { name: "five" } })).rejects.toMatchObject({ code: "conflict" });

      now = new Date(now.getTime() + 2 * 3600_000); // "two" has expired
      await createToken({ ctx, input: { name: "five" } });
      await expect(createToken({ ctx, input: { name: "six" } })).rejects.toMatchObject({ code: "conflict" });
    });

    it("lets no more than the cap through when tokens are created at once", async () => {
      const ctx = await workspace(capped);
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) => createToken({ ctx, input: { name: `t${i}` } })),
      );
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(3);
      for (const r of results) {
        if (r.status === "rejected") expect(r.reason).toMatchObject({ code: "conflict" });
      }
    });

    it("still rotates a token at the cap: the token it replaces does not count", async () => {
      const ctx = await workspace(capped);
      const tokens = [];
      for (const name of ["a", "b", "c"]) tokens.push(await createToken({ ctx, input: { name } }));
      const old = tokens[0];
      if (!old) throw new Error("no token");
      const rotated = await createToken({ ctx, input: { name: "a" }, replaces: old.id });
      await revokeToken({ ctx, input: { id: old.id } });
      expect(rotated.name).toBe("a");
      await expect(createToken({ ctx, input: { name: "d" } })).rejects.toMatchObject({ code: "conflict" });
    });
  });
});
