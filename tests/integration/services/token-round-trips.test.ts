/**
 * Performance #19: a request with a token this process saw verify costs one KV round trip for the token
 * check and its rate limit together; the verdict read in that round trip still decides (a revocation is
 * refused at once), and the count is the same as counting separately.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Platform, TenantContext } from "@/lib/pipeline/context";
import { limitToken } from "@/lib/pipeline/rate-limit/limits";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { authenticateToken } from "@/lib/services/tokens/authenticate-token";
import { createToken } from "@/lib/services/tokens/create-token";
import { revokeToken } from "@/lib/services/tokens/revoke-token";
import { hashToken } from "@/lib/services/tokens/token-format";
import { tokenCacheKey } from "@/lib/services/tokens/verify-token";
import { countingKv } from "@/tests/support/counting-kv";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";

let t: TestDatabase;
let platform: Platform;
let kv: ReturnType<typeof countingKv>;
let admin: TenantContext;

beforeAll(async () => {
  const [embedded] = databaseTargets();
  if (!embedded) throw new Error("no database target");
  t = await embedded.create();
  platform = testPlatform(t.db);
  kv = countingKv(platform.kv);
  platform = { ...platform, kv };
  admin = tenantCtx(platform, (await createTenant({ ctx: systemCtx(platform), input: { name: "rt" } })).id);
});
afterAll(async () => {
  await platform?.kv.close();
  await t?.cleanup();
});

const authenticate = (token: string) => authenticateToken({ ctx: platform, input: { token, address: null } });

it("checks a token seen valid and counts its rate limit in one KV round trip, as counting apart would", async () => {
  const { token } = await createToken({ ctx: admin, input: { name: "agent" } });
  const first = await authenticate(token); // looked up, cached, remembered as valid
  if (!("token" in first)) throw new Error("the token did not verify");
  expect(first.limit).toBeUndefined();
  const separately = await limitToken(platform, first.token);

  kv.roundTrips = 0;
  const again = await authenticate(token);
  expect(kv.roundTrips).toBe(1);
  if (!("token" in again)) throw new Error("the token did not verify again");
  expect(again.token.tokenId).toBe(first.token.tokenId);
  // The same window, one call later.
  expect(again.limit).toMatchObject({
    ok: true,
    limit: separately.limit,
    remaining: separately.remaining - 1,
  });
});

it("counts a call once when the cached verdict expired and the token is looked up again", async () => {
  const { token } = await createToken({ ctx: admin, input: { name: "expired-verdict" } });
  const first = await authenticate(token);
  if (!("token" in first)) throw new Error("the token did not verify");
  await platform.kv.del(tokenCacheKey(hashToken(token)));
  const again = await authenticate(token);
  if (!("token" in again)) throw new Error("the token did not verify again");
  const next = await limitToken(platform, again.token);
  // One call counted by `again` (in the check's round trip), one by `next`: none twice.
  expect(again.limit?.remaining).toBe(next.remaining + 1);
});

it("refuses a revoked token on the fast path: the verdict read in the same round trip decides", async () => {
  const created = await createToken({ ctx: admin, input: { name: "to-revoke" } });
  expect(await authenticate(created.token)).toHaveProperty("token");
  await revokeToken({ ctx: admin, input: { id: created.id } });
  expect(await authenticate(created.token)).toEqual({ refused: "unauthorized" });
});
