/**
 * Upstash Redis over REST (`KV_REST_API_URL` + `KV_REST_API_TOKEN` from Vercel's integration, or
 * `UPSTASH_REDIS_REST_URL` + `UPSTASH_REDIS_REST_TOKEN` from Upstash's; `kvStore` in lib/config.ts picks
 * the pair), through `@upstash/redis` — the client `@vercel/kv` wraps.
 * Platform layer: may import drivers and lib/kv; never services or engine.
 */
import { Redis } from "@upstash/redis";
import { type KvCommand, scoreBound, toKvReply } from "@/lib/kv/commands";
import { kvFromDriver } from "@/lib/kv/driver";
import type { Kv } from "@/lib/kv/types";

const REQUEST_TIMEOUT_MS = 5_000;
const NETWORK_RETRIES = 2;
const COMMAND_ECHO = ", command was:";

type UpstashPipeline = ReturnType<Redis["pipeline"]>;

export interface UpstashKvConfig {
  url: string;
  token: string;
}

export function createUpstashKv({ url, token }: UpstashKvConfig): Kv {
  const client = new Redis({
    url,
    token,
    // Return stored strings untouched: by default the client JSON-parses values, so "123" or "true"
    // would come back as a number or boolean.
    automaticDeserialization: false,
    // Batching is explicit (Kv.pipeline); implicit batching would hide which call a failure belongs to.
    enableAutoPipelining: false,
    enableTelemetry: false,
    // The client retries network errors only (5 times by default, ~4 s); keep /api/health quick.
    retry: { retries: NETWORK_RETRIES, backoff: (attempt) => 100 * 2 ** attempt },
    // A fresh signal per request. Passed as a function, an abort throws; a plain AbortSignal would
    // make the client resolve the aborted request with the result "Aborted".
    signal: () => AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });

  return kvFromDriver({
    name: "upstash",
    // Even a single command goes through POST /pipeline: there a rejected command comes back as its
    // own `{error}` entry, whereas POST / reports it as an HTTP 400 indistinguishable from other
    // request failures.
    async execute(commands) {
      const pipeline = client.pipeline();
      for (const command of commands) enqueue(pipeline, command);
      const replies = await withoutCommandEcho(pipeline.exec({ keepErrors: true }));
      return commands.map((command, index) => {
        const reply = replies[index];
        if (!reply) throw new Error("upstash: missing pipeline reply");
        if (reply.error !== undefined) return { ok: false, error: new Error(reply.error) };
        return { ok: true, reply: toKvReply(command, reply.result) };
      });
    },
    async ping() {
      await withoutCommandEcho(client.ping());
    },
    // Stateless HTTP: nothing to release.
    async close() {},
  });
}

function enqueue(pipeline: UpstashPipeline, command: KvCommand): void {
  switch (command.op) {
    case "get":
      pipeline.get(command.key);
      return;
    case "set": {
      const expiry = command.ttlSeconds === undefined ? {} : { ex: command.ttlSeconds };
      const condition = command.onlyIfAbsent ? { nx: true as const } : {};
      pipeline.set(command.key, command.value, { ...expiry, ...condition });
      return;
    }
    case "incr":
      pipeline.incrby(command.key, command.by);
      return;
    case "expire":
      pipeline.expire(command.key, command.ttlSeconds);
      return;
    case "ttl":
      pipeline.ttl(command.key);
      return;
    case "del":
      pipeline.del(...command.keys);
      return;
    case "zadd":
      pipeline.zadd(command.key, { score: command.score, member: command.member });
      return;
    case "zremrangebyscore":
      pipeline.zremrangebyscore(command.key, scoreBound(command.min), scoreBound(command.max));
      return;
    case "zcard":
      pipeline.zcard(command.key);
      return;
  }
}

/**
 * The client appends ", command was: <request body>" to HTTP errors; that body holds whole cached
 * values, which do not belong in error messages or logs. Other errors (network, timeout) pass as-is.
 */
async function withoutCommandEcho<T>(request: Promise<T>): Promise<T> {
  try {
    return await request;
  } catch (error) {
    if (error instanceof Error && error.message.includes(COMMAND_ECHO)) {
      throw new Error(`upstash: ${error.message.slice(0, error.message.indexOf(COMMAND_ECHO))}`);
    }
    throw error;
  }
}
