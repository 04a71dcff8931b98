/**
 * Redis over TCP (`REDIS_URL`, ioredis), for self-hosted deployments where several instances share
 * one store.
 * Platform layer: may import drivers and lib/kv; never services or engine.
 */
import { Redis } from "ioredis";
import { type KvCommand, scoreBound, toKvReply } from "@/lib/kv/commands";
import { kvFromDriver } from "@/lib/kv/driver";
import type { Kv } from "@/lib/kv/types";

const CONNECT_TIMEOUT_MS = 5_000;
const COMMAND_TIMEOUT_MS = 5_000;
const MAX_RECONNECT_DELAY_MS = 2_000;

export function createRedisKv(url: string): Kv {
  const client = new Redis(url, {
    // No socket until the first command, so building or importing the app never dials Redis.
    lazyConnect: true,
    // The offline queue lets the first command wait for that lazy connect, but while Redis is down a
    // command waits for at most one failed reconnect (and never past commandTimeout) before failing.
    enableOfflineQueue: true,
    maxRetriesPerRequest: 1,
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: COMMAND_TIMEOUT_MS,
    // Keep reconnecting for as long as the process lives, with a capped delay.
    retryStrategy: (attempt) => Math.min(attempt * 200, MAX_RECONNECT_DELAY_MS),
    // Commands issued in the same tick (by concurrent requests) go out in one write.
    enableAutoPipelining: true,
  });
  // Failures reach callers as rejected commands and ping(); without a listener ioredis would also
  // print every failed reconnect as an "Unhandled error event".
  client.on("error", () => {});

  return kvFromDriver({
    name: "redis",
    async execute(commands) {
      // Sent as one auto-pipelined write; each command settles on its own.
      const replies = await Promise.allSettled(
        commands.map((command) => client.call(...toRedisArgs(command))),
      );
      return commands.map((command, index) => {
        const reply = replies[index] as PromiseSettledResult<unknown>;
        if (reply.status === "fulfilled") return { ok: true, reply: toKvReply(command, reply.value) };
        // Only a reply error is the command's own failure; anything else (timeout, connection lost)
        // means the batch did not go through.
        if (reply.reason instanceof Error && reply.reason.name === "ReplyError")
          return { ok: false, error: reply.reason };
        throw reply.reason;
      });
    },
    async ping() {
      await client.ping();
    },
    async close() {
      if (client.status === "ready") await client.quit();
      else client.disconnect();
    },
  });
}

function toRedisArgs(command: KvCommand): [string, ...(string | number)[]] {
  switch (command.op) {
    case "get":
    case "ttl":
    case "zcard":
      return [command.op, command.key];
    case "set":
      return [
        "set",
        command.key,
        command.value,
        ...(command.ttlSeconds === undefined ? [] : ["EX", command.ttlSeconds]),
        ...(command.onlyIfAbsent ? ["NX"] : []),
      ];
    case "incr":
      return ["incrby", command.key, command.by];
    case "expire":
      return ["expire", command.key, command.ttlSeconds];
    case "del":
      return ["del", ...command.keys];
    case "zadd":
      return ["zadd", command.key, command.score, command.member];
    case "zremrangebyscore":
      return ["zremrangebyscore", command.key, scoreBound(command.min), scoreBound(command.max)];
  }
}
