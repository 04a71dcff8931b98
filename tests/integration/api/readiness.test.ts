/**
 * Liveness and readiness of the app in this process while its Redis goes away and comes back (#29, "Redis
 * down looks healthy": /api/health answered 200 while every API call answered 500, so load balancers and
 * the Docker health check kept sending traffic). The app runs on a fresh database and a Redis server of
 * the test's own, which the test stops and starts again; the app is never restarted.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generous } from "@/tests/support/generous";
import { type OwnRedis, startOwnRedis } from "@/tests/support/redis-server";
import { inProcessApp } from "@/tests/support/route-handlers";

const app = inProcessApp("readiness", { database: "fresh" });
let redis: OwnRedis;

async function get(path: "/api/ready" | "/api/health") {
  const { GET } =
    path === "/api/ready" ? await import("@/app/api/ready/route") : await import("@/app/api/health/route");
  const response = await GET();
  return {
    status: response.status,
    cache: response.headers.get("cache-control"),
    body: (await response.json()) as Record<string, unknown>,
  };
}

beforeAll(async () => {
  redis = await startOwnRedis();
  await app.start({ REDIS_URL: redis.url });
});

afterAll(async () => {
  const { getKv } = await import("@/lib/kv");
  await getKv().close();
  await app.stop();
  await redis?.remove();
});

describe("GET /api/ready", () => {
  it("answers 200 with every part ok while the database, Redis and the keys serve", async () => {
    expect(await get("/api/ready")).toEqual({
      status: 200,
      cache: "no-store",
      body: { status: "ok", db: "ok", kv: "ok", secret_key: "ok" },
    });
  });

  it("answers 503 naming the KV store while Redis is down, as liveness stays 200", async () => {
    await redis.stop();
    expect(await get("/api/ready")).toEqual({
      status: 503,
      cache: "no-store",
      body: {
        status: "error",
        db: "ok",
        kv: "error",
        secret_key: "ok",
        reason: "the KV store does not answer",
      },
    });
    // Liveness: a restart would not bring Redis back, so health must not ask for one.
    const health = await get("/api/health");
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: "degraded", db: "ok", kv: "error" });
  });

  it("turns ready again by itself once Redis is back, without a restart", async () => {
    await redis.start();
    // The client reconnects on its own schedule (at most 2 s apart): ask until it has, within a bound
    // far beyond that schedule.
    const deadline = Date.now() + generous(5_000);
    let ready = await get("/api/ready");
    while (ready.status !== 200 && Date.now() < deadline) {
      await sleep(200);
      ready = await get("/api/ready");
    }
    expect(ready).toMatchObject({ status: 200, body: { status: "ok", kv: "ok" } });
    expect((await get("/api/health")).body).toMatchObject({ status: "ok", kv: "ok" });
  });
});
