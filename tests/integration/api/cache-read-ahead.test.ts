/**
 * Performance #19: a REST call that repeats one of the same token reads the result cache in the token
 * check's KV round trip, so a cached repeat costs one round trip instead of two. What was read ahead only
 * answers the call's own read of that very key: a tenant whose providers changed reads its new key, a
 * revoked token is still refused, and the answer is the one a separate read gives.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import type { Kv } from "@/lib/kv/types";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { serveRequest } from "@/tests/support/app-routes";
import { countingKv } from "@/tests/support/counting-kv";
import { fakeProviderEnv } from "@/tests/support/provider-env";
import { inProcessApp, newToken, operatorWorkspace, routeRequest } from "@/tests/support/route-handlers";

const app = inProcessApp("read-ahead");
let fake: FakeProviders;
let kv: Kv & { roundTrips: number };
let token: string;
let tenant: Awaited<ReturnType<typeof operatorWorkspace>>;

/** A search as a client sends it: a fixed body with its Content-Length. */
async function search(body: object | string, as = token) {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const response = await serveRequest(
    routeRequest("/api/v1/search", {
      method: "POST",
      token: as,
      body: text,
      headers: { "content-length": String(Buffer.byteLength(text)) },
    }),
  );
  return { status: response.status, body: await response.json() };
}

/** KV round trips made while `work` ran, once the writes it started after its response have ended. */
async function roundTripsOf<T>(work: () => Promise<T>): Promise<{ result: T; roundTrips: number }> {
  const { flushPendingWrites } = await import("@/lib/pipeline/platform");
  await flushPendingWrites();
  kv.roundTrips = 0;
  const result = await work();
  const roundTrips = kv.roundTrips;
  return { result, roundTrips };
}

beforeAll(async () => {
  fake = await startFakeProviders();
  await app.start({ ...fakeProviderEnv(fake.url), SEARCHMUX_RATE_LIMIT_RPM: "1000" });
  const { createKv } = await import("@/lib/kv");
  kv = countingKv(createKv());
  (globalThis as { __searchmuxKv?: Kv }).__searchmuxKv = kv;
  tenant = await operatorWorkspace("read-ahead");
  token = await newToken(tenant, { name: "agent" });
});

afterAll(async () => {
  await app.stop();
  await kv?.close();
  await fake?.close();
});

beforeEach(() => fake.clearRequests());

it("answers a repeated cached search with one KV round trip, as a separate cache read would", async () => {
  const body = { query: "read ahead", max_results: 5, providers: ["duckduckgo", "wikipedia"] };
  const first = await search(body); // providers asked, result cached, token remembered as valid
  expect(first.body.cache_hit).toBe(false);
  const second = await roundTripsOf(() => search(body)); // learns which cache key the call reads
  expect(second.result.body.cache_hit).toBe(true);
  expect(second.roundTrips).toBe(2);

  const third = await roundTripsOf(() => search(body));
  expect(third.roundTrips).toBe(1);
  expect(third.result.status).toBe(200);
  expect(third.result.body.cache_hit).toBe(true);
  const { trace_id: _a, duration_ms: _b, ...answer } = third.result.body;
  const { trace_id: _c, duration_ms: _d, ...separately } = second.result.body;
  expect(answer).toEqual(separately);
  expect(fake.requests("duckduckgo")).toHaveLength(1);
});

it("reads the new key when the tenant's providers changed since the call was remembered", async () => {
  const body = { query: "providers change", max_results: 5 };
  await search(body);
  expect((await search(body)).body.cache_hit).toBe(true); // remembered
  const { setKey } = await import("@/lib/services/keys/set-key");
  await setKey({ ctx: tenant, input: { provider: "tavily", key: "tvly-own-key-123" } });
  fake.clearRequests();

  const after = await search(body);
  expect(after.status).toBe(200);
  expect(after.body.cache_hit).toBe(false);
  expect(fake.requests("tavily")).toHaveLength(1);
});

it("refuses a revoked token although the cache was read with its check", async () => {
  const revocable = await newToken(tenant, { name: "to-revoke" });
  const body = { query: "revoked", max_results: 3, providers: ["wikipedia"] };
  await search(body, revocable);
  expect((await search(body, revocable)).body.cache_hit).toBe(true);
  const { listTokens } = await import("@/lib/services/tokens/list-tokens");
  const { revokeToken } = await import("@/lib/services/tokens/revoke-token");
  const listed = await listTokens({ ctx: tenant });
  const id = listed.find((t: { name: string }) => t.name === "to-revoke")?.id;
  if (!id) throw new Error("token not listed");
  await revokeToken({ ctx: tenant, input: { id } });

  const refused = await search(body, revocable);
  expect(refused.status).toBe(401);
  expect(refused.body.results).toBeUndefined();
});

it("does not read ahead for another token of the same tenant, and answers it the same", async () => {
  const body = { query: "read ahead", max_results: 5, providers: ["duckduckgo", "wikipedia"] };
  const other = await newToken(tenant, { name: "other" });
  await search({ query: "warm up" }, other); // seen valid, nothing learned for this body
  const answered = await roundTripsOf(() => search(body, other));
  expect(answered.result.body.cache_hit).toBe(true);
  expect(answered.roundTrips).toBe(2);
});

it("refuses a body that is not a JSON object as it would without reading ahead", async () => {
  await search({ query: "seen" }); // the token is one this process saw verify
  for (const [body, message] of [
    ["{not json", "the body is not valid JSON"],
    ["[1, 2]", "the body must be a JSON object"],
  ]) {
    const refused = await search(body as string);
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe(message);
  }
});
