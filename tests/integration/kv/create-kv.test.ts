import { afterAll, describe, expect, it } from "vitest";
import { createKv, getKv, type Kv } from "@/lib/kv";

const created: Kv[] = [];
const make = (env: Record<string, string>): Kv => {
  const kv = createKv(env);
  created.push(kv);
  return kv;
};

afterAll(async () => {
  await Promise.all(created.map((kv) => kv.close()));
});

describe("createKv", () => {
  it("defaults to the in-memory store", () => {
    expect(make({}).name).toBe("memory");
  });

  it("uses Redis when REDIS_URL is set", () => {
    expect(make({ REDIS_URL: "redis://127.0.0.1:6379" }).name).toBe("redis");
  });

  it("prefers Upstash when both REST variables are set, even with REDIS_URL", () => {
    const kv = make({
      KV_REST_API_URL: "https://example.upstash.io",
      KV_REST_API_TOKEN: "token",
      REDIS_URL: "redis://127.0.0.1:6379",
    });
    expect(kv.name).toBe("upstash");
  });

  it("treats blank values as unset", () => {
    expect(make({ KV_REST_API_URL: " ", KV_REST_API_TOKEN: "", REDIS_URL: "" }).name).toBe("memory");
  });

  it("refuses half of the Upstash pair instead of silently falling back", () => {
    expect(() => createKv({ KV_REST_API_URL: "https://example.upstash.io" })).toThrow(/KV_REST_API_TOKEN/);
    expect(() => createKv({ KV_REST_API_TOKEN: "token", REDIS_URL: "redis://x" })).toThrow(/KV_REST_API_URL/);
  });
});

describe("getKv", () => {
  it("returns one store per process", () => {
    const kv = getKv();
    created.push(kv);
    expect(getKv()).toBe(kv);
  });
});
