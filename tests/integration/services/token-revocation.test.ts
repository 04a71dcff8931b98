/**
 * Security #14, a token revoked while a lookup is in flight: the lookup has read the token valid from the
 * database and not yet cached it when the token is revoked, by any revocation path. Afterwards the token
 * verifies as null and KV holds no valid verdict, on the memory KV and on Redis; a lookup slower than a
 * tombstone lives caches nothing; a revoked token keeps no vouch.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { apiTokens, memberships, users } from "@/lib/db/schema";
import { createMemoryKv } from "@/lib/kv/memory";
import { createRedisKv } from "@/lib/kv/redis";
import type { Kv } from "@/lib/kv/types";
import { type Platform, SCOPES, type TenantContext } from "@/lib/pipeline/context";
import { changeMember } from "@/lib/services/members/change-member";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { createToken } from "@/lib/services/tokens/create-token";
import { revokeAllTokens } from "@/lib/services/tokens/revoke-all-tokens";
import { revokeToken } from "@/lib/services/tokens/revoke-token";
import { hashToken } from "@/lib/services/tokens/token-format";
import { TOKEN_TOMBSTONE_SECONDS, tokenCacheKey, verifyToken } from "@/lib/services/tokens/verify-token";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { gate, holdSystemReads, pauseAtSet } from "@/tests/support/interleave";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";

type CreatedToken = Awaited<ReturnType<typeof createToken>>;

const stores: Array<[string, () => Kv]> = [
  ["memory", createMemoryKv],
  ["redis", () => createRedisKv(process.env.REDIS_URL || "redis://127.0.0.1:6379")],
];
const target = databaseTargets().at(-1);
if (!target) throw new Error("no database target");

describe.each(stores)("revoking a token while its lookup is under way, on %s KV", (_, createKv) => {
  let t: TestDatabase;
  let kv: Kv;
  let platform: Platform;
  let tenantId: string;
  const ids = { owner: "", creator: "" };
  const as = (userId: string) => tenantCtx(platform, tenantId, SCOPES, { kind: "user", userId });
  let owner: TenantContext;
  /** Every KV key a token of this suite may have, deleted at the end (Redis outlives the test). */
  const written: string[] = [];

  const keysOf = (token: CreatedToken) => {
    const hash = hashToken(token.token);
    return { verdict: tokenCacheKey(hash), vouch: `smx:token-vouched:${hash}` };
  };
  const verify = (token: CreatedToken, ctx: Platform = platform) =>
    verifyToken({ ctx, input: { token: token.token } });

  /** A token the member created, with the admin scope (so demoting the member revokes it too). */
  async function memberToken(): Promise<CreatedToken> {
    const created = await createToken({
      ctx: as(ids.creator),
      input: { name: "raced", scopes: ["search", "admin"] },
    });
    const { verdict, vouch } = keysOf(created);
    written.push(verdict, vouch, `smx:token-used:${created.id}`);
    return created;
  }

  beforeAll(async () => {
    t = await target.create();
    kv = createKv();
    platform = testPlatform(t.db, { kv });
    const created = await t.db.withSystem((tx) =>
      tx
        .insert(users)
        .values(["owner", "creator"].map((name) => ({ email: `${name}@revocation.test`, name })))
        .returning({ id: users.id, name: users.name }),
    );
    for (const user of created) ids[user.name as keyof typeof ids] = user.id;
    tenantId = (
      await createTenant({ ctx: systemCtx(platform), input: { name: "revocation", ownerUserId: ids.owner } })
    ).id;
    owner = as(ids.owner);
  });
  // The creator is an admin again before each case (the removal and demotion cases change that).
  beforeEach(async () => {
    await t.db.withSystem(async (tx) => {
      await tx.delete(memberships).where(eq(memberships.userId, ids.creator));
      await tx.insert(memberships).values({ tenantId, userId: ids.creator, role: "admin" });
    });
  });
  afterAll(async () => {
    if (written.length > 0) await kv?.del(...written);
    await kv?.close();
    await t?.cleanup();
  });

  const revocations: Array<[string, (token: CreatedToken) => Promise<unknown>]> = [
    ["revokeToken", (token) => revokeToken({ ctx: owner, input: { id: token.id } })],
    ["revokeAllTokens", () => revokeAllTokens({ ctx: owner })],
    ["removing its creator", () => changeMember({ ctx: owner, input: { userId: ids.creator, role: null } })],
    [
      "demoting its creator to member",
      () => changeMember({ ctx: owner, input: { userId: ids.creator, role: "member" } }),
    ],
  ];

  it.each(revocations)(
    "%s: the token is refused afterwards and KV holds no valid verdict",
    async (_, revoke) => {
      const token = await memberToken();
      const { verdict, vouch } = keysOf(token);
      const paused = gate();
      // The lookup stops after the database answered "valid", before it writes anything to KV.
      const lookup = verify(token, { ...platform, kv: pauseAtSet(kv, verdict, "before", paused) });
      await paused.reached;
      await revoke(token);
      paused.release();

      expect(await lookup).toBeNull();
      expect(await verify(token)).toBeNull();
      expect(await kv.get(verdict)).toBe("null");
      expect(await kv.get(vouch)).toBeNull();
    },
  );

  it("caches nothing from a lookup that took longer than a tombstone lives", async () => {
    const token = await memberToken();
    const { verdict } = keysOf(token);
    const paused = gate();
    let lateMs = 0;
    // Held right after the database read, before the lookup decides whether to cache.
    const lookup = verify(token, {
      ...platform,
      db: holdSystemReads(t.db, paused),
      now: () => new Date(Date.now() + lateMs),
    });
    await paused.reached;
    await revokeToken({ ctx: owner, input: { id: token.id } });
    // The lookup resumes after the tombstone expired.
    lateMs = (TOKEN_TOMBSTONE_SECONDS + 1) * 1000;
    await kv.del(verdict);
    paused.release();
    await lookup;

    expect(await kv.get(verdict)).toBeNull();
    expect(await verify(token)).toBeNull();
    expect(await kv.get(verdict)).toBe("null");
  });

  it("leaves no vouch for a token revoked right after its lookup cached it valid", async () => {
    const token = await memberToken();
    const { verdict, vouch } = keysOf(token);
    const paused = gate();
    const lookup = verify(token, { ...platform, kv: pauseAtSet(kv, verdict, "after", paused) });
    await paused.reached;
    await revokeToken({ ctx: owner, input: { id: token.id } });
    paused.release();
    await lookup;

    expect(await kv.get(vouch)).toBeNull();
    expect(await verify(token)).toBeNull();
  });

  it("drops the vouch of a token the database no longer finds (a revocation whose tombstone was lost)", async () => {
    const token = await memberToken();
    const { verdict, vouch } = keysOf(token);
    expect(await verify(token)).not.toBeNull();
    expect(await kv.get(vouch)).toBe("1");
    await t.db.withSystem((tx) =>
      tx.update(apiTokens).set({ revokedAt: new Date() }).where(eq(apiTokens.id, token.id)),
    );
    await kv.del(verdict);

    expect(await verify(token)).toBeNull();
    expect(await kv.get(vouch)).toBeNull();
  });

  it("revokeAllTokens revokes every live token, even with another revocation of one of them at once", async () => {
    const tokens = await Promise.all([memberToken(), memberToken(), memberToken()]);
    for (const token of tokens) expect(await verify(token)).not.toBeNull();
    const [first] = tokens;
    if (!first) throw new Error("no token");

    const [single, all] = await Promise.allSettled([
      revokeToken({ ctx: owner, input: { id: first.id } }),
      revokeAllTokens({ ctx: owner }),
    ]);

    // Whichever commits second finds the token already revoked: only the single revocation may say so.
    if (single.status === "rejected") expect(single.reason).toMatchObject({ code: "not_found" });
    expect(all).toMatchObject({ status: "fulfilled" });
    for (const token of tokens) {
      expect(await verify(token)).toBeNull();
      expect(await kv.get(keysOf(token).verdict)).toBe("null");
    }
  });
});
