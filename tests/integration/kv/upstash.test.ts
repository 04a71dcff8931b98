import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUpstashKv } from "@/lib/kv/upstash";
import { startUpstashBridge, type UpstashBridge } from "@/tests/support/upstash-bridge";
import { describeKvContract, TEST_REDIS_URL } from "./contract";

const TOKEN = `test-token-${randomUUID()}`;
let bridge: UpstashBridge;

beforeAll(async () => {
  bridge = await startUpstashBridge({ redisUrl: TEST_REDIS_URL, token: TOKEN });
});
afterAll(async () => {
  await bridge.close();
});

describeKvContract("upstash", () => createUpstashKv({ url: bridge.url, token: TOKEN }));

describe("Upstash adapter with a wrong token", () => {
  it("surfaces the rejection instead of returning empty results", async () => {
    const kv = createUpstashKv({ url: bridge.url, token: "wrong-token" });
    await expect(kv.ping()).rejects.toThrow(/Unauthorized/);
    await expect(kv.get("searchmux-test:any")).rejects.toThrow(/Unauthorized/);
    await expect(kv.incr("searchmux-test:any")).rejects.toThrow(/Unauthorized/);
  });

  it("keeps the request body (cached values) out of the error message", async () => {
    const kv = createUpstashKv({ url: bridge.url, token: "wrong-token" });
    const failure = kv.set("searchmux-test:any", "private cached value");
    await expect(failure).rejects.toThrow(/Unauthorized/);
    await expect(failure).rejects.not.toThrow(/private cached value/);
  });
});

describe("Upstash bridge wire format", () => {
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${bridge.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${TOKEN}`, ...headers },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await response.json() };
  };
  const key = `searchmux-test:${randomUUID()}:wire`;

  afterAll(async () => {
    await post("/", ["DEL", key]);
  });

  it("base64-encodes strings except OK when the client asks for it", async () => {
    expect(await post("/", ["SET", key, "héllo", "EX", 60])).toEqual({ status: 200, body: { result: "OK" } });
    const encoded = await post("/", ["GET", key], { "upstash-encoding": "base64" });
    expect(encoded.body).toEqual({ result: Buffer.from("héllo").toString("base64") });
    expect((await post("/", ["GET", key])).body).toEqual({ result: "héllo" });
  });

  it("answers Redis errors with 400 on / and per command on /pipeline and /multi-exec", async () => {
    const notAnInteger = { error: "ERR value is not an integer or out of range" };
    expect(await post("/", ["INCR", key])).toEqual({ status: 400, body: notAnInteger });
    const batch = [
      ["INCR", key],
      ["TTL", key],
    ];
    for (const path of ["/pipeline", "/multi-exec"]) {
      expect(await post(path, batch)).toEqual({
        status: 200,
        body: [notAnInteger, { result: expect.any(Number) }],
      });
    }
  });
});
