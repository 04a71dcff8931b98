/**
 * Security #14, guessing floods with no client address (no trusted proxy): the lookups of unvouched
 * tokens wait for a few slots, and once UNVOUCHED_LOOKUPS_WAITING wait, an unknown token is refused at
 * once ("busy") instead of piling up; a vouched token is still looked up and passes.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Platform, TenantContext } from "@/lib/pipeline/context";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { authenticateToken } from "@/lib/services/tokens/authenticate-token";
import { createToken } from "@/lib/services/tokens/create-token";
import { generateToken, hashToken } from "@/lib/services/tokens/token-format";
import {
  tokenCacheKey,
  UNVOUCHED_LOOKUPS,
  UNVOUCHED_LOOKUPS_WAITING,
} from "@/lib/services/tokens/verify-token";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { gate, holdSystemReads } from "@/tests/support/interleave";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";

const target = databaseTargets().at(-1);
if (!target) throw new Error("no database target");

describe(`authenticating a flood of unknown tokens without a client address on ${target.name}`, () => {
  let t: TestDatabase;
  let platform: Platform;
  let ctx: TenantContext;

  const authenticate = (token: string, on: Platform = platform) =>
    authenticateToken({ ctx: on, input: { token, address: null } });

  beforeAll(async () => {
    t = await target.create();
    platform = testPlatform(t.db);
    const tenant = await createTenant({ ctx: systemCtx(platform), input: { name: "flood" } });
    ctx = tenantCtx(platform, tenant.id);
  });
  afterAll(async () => {
    await platform?.kv.close();
    await t?.cleanup();
  });

  it("refuses unknown tokens unasked once the lookup queue is full, and still admits a vouched one", async () => {
    const vouched = (await createToken({ ctx, input: { name: "vouched" } })).token;
    expect(await authenticate(vouched)).toHaveProperty("token");
    await platform.kv.del(tokenCacheKey(hashToken(vouched)));
    const neverSeen = (await createToken({ ctx, input: { name: "never-seen" } })).token;

    // Guesses whose lookups hold their database answer: two take the slots, the rest fill the queue.
    const held = gate();
    const holding = { ...platform, db: holdSystemReads(t.db, held) };
    const guesses = Array.from({ length: UNVOUCHED_LOOKUPS + UNVOUCHED_LOOKUPS_WAITING }, () =>
      authenticate(generateToken(), holding),
    );
    try {
      await held.reached;
      await sleep(100); // the memory KV answers in microtasks: every guess is queued by now
      const refusedAtOnce = (token: string) =>
        Promise.race([authenticate(token), sleep(2_000).then(() => "still waiting")]);
      expect(await refusedAtOnce(generateToken())).toEqual({ refused: "busy", retryAfter: 1 });
      // Documented: a valid token never seen valid is a guess like any other while the queue is full.
      expect(await refusedAtOnce(neverSeen)).toEqual({ refused: "busy", retryAfter: 1 });
      expect(await authenticate(vouched)).toHaveProperty("token.name", "vouched");
    } finally {
      held.release();
    }
    for (const outcome of await Promise.all(guesses)) expect(outcome).toEqual({ refused: "unauthorized" });
    expect(await authenticate(neverSeen)).toHaveProperty("token.name", "never-seen");
  });

  it("shares one lookup among concurrent requests with one token not yet in KV (a client opening many connections)", async () => {
    const token = (await createToken({ ctx, input: { name: "many-connections" } })).token;
    await platform.kv.del(tokenCacheKey(hashToken(token)));
    const held = gate();
    const holding = { ...platform, db: holdSystemReads(t.db, held) };
    // More at once than the slots and the queue hold together: one by one they would be refused as busy.
    const requests = Array.from({ length: UNVOUCHED_LOOKUPS + UNVOUCHED_LOOKUPS_WAITING + 50 }, () =>
      authenticate(token, holding),
    );
    await held.reached;
    held.release();
    for (const outcome of await Promise.all(requests)) {
      expect(outcome).toHaveProperty("token.name", "many-connections");
    }
  });
});
