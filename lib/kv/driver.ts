/**
 * Turns a minimal adapter ("run these commands in one round trip") into the full `Kv` API, so the
 * direct commands and pipelines share one code path and one error policy in every adapter.
 * Platform layer: imports only lib/kv.
 */
import {
  type KvCommand,
  KvCommandError,
  type KvOutcome,
  type KvReplies,
  type KvReply,
  KvUnavailableError,
  kvCommand,
} from "@/lib/kv/commands";
import type { Kv, KvName, KvPipeline, KvSetOptions } from "@/lib/kv/types";

export interface KvDriver {
  readonly name: KvName;
  /**
   * Runs the commands in order, in one round trip where possible, and returns one outcome per
   * command. A command the store rejects fails only its own outcome; transport failures throw.
   */
  execute(commands: readonly KvCommand[]): Promise<KvOutcome[]>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function kvFromDriver(driver: KvDriver): Kv {
  const run = async <C extends KvCommand>(command: C): Promise<KvReplies[C["op"]]> => {
    const [reply] = await executeAll(driver, [command]);
    // The driver produced this reply for exactly this command, so it has the command's reply type.
    return reply as KvReplies[C["op"]];
  };
  // Async wrappers so invalid arguments reject like every other failure instead of throwing.
  return {
    name: driver.name,
    get: async (key) => run(kvCommand.get(key)),
    set: async (key, value, opts) => run(kvCommand.set(key, value, opts)),
    incr: async (key, by) => run(kvCommand.incr(key, by)),
    expire: async (key, ttlSeconds) => run(kvCommand.expire(key, ttlSeconds)),
    ttl: async (key) => run(kvCommand.ttl(key)),
    del: async (...keys) => run(kvCommand.del(...keys)),
    zadd: async (key, score, member) => run(kvCommand.zadd(key, score, member)),
    zremrangebyscore: async (key, min, max) => run(kvCommand.zremrangebyscore(key, min, max)),
    zcard: async (key) => run(kvCommand.zcard(key)),
    pipeline: () => new DriverPipeline(driver),
    ping: () => driver.ping(),
    close: () => driver.close(),
  };
}

class DriverPipeline implements KvPipeline {
  private readonly queued: KvCommand[] = [];

  constructor(private readonly driver: KvDriver) {}

  get(key: string): this {
    return this.queue(kvCommand.get(key));
  }
  set(key: string, value: string, opts?: KvSetOptions): this {
    return this.queue(kvCommand.set(key, value, opts));
  }
  incr(key: string, by?: number): this {
    return this.queue(kvCommand.incr(key, by));
  }
  expire(key: string, ttlSeconds: number): this {
    return this.queue(kvCommand.expire(key, ttlSeconds));
  }
  ttl(key: string): this {
    return this.queue(kvCommand.ttl(key));
  }
  del(...keys: string[]): this {
    return this.queue(kvCommand.del(...keys));
  }
  zadd(key: string, score: number, member: string): this {
    return this.queue(kvCommand.zadd(key, score, member));
  }
  zremrangebyscore(key: string, min: number, max: number): this {
    return this.queue(kvCommand.zremrangebyscore(key, min, max));
  }
  zcard(key: string): this {
    return this.queue(kvCommand.zcard(key));
  }

  exec(): Promise<unknown[]> {
    return executeAll(this.driver, this.queued.splice(0));
  }

  private queue(command: KvCommand): this {
    this.queued.push(command);
    return this;
  }
}

async function executeAll(driver: KvDriver, commands: readonly KvCommand[]): Promise<KvReply[]> {
  if (commands.length === 0) return [];
  const outcomes = await driver.execute(commands).catch((error: unknown) => {
    throw new KvUnavailableError(driver.name, error);
  });
  return commands.map((command, index) => {
    const outcome = outcomes[index];
    if (!outcome) throw new Error(`kv ${driver.name}: no reply for command ${index + 1} (${command.op})`);
    if (!outcome.ok) throw new KvCommandError(command.op, outcome.error);
    return outcome.reply;
  });
}
