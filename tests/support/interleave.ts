/**
 * Wrappers around the real database and KV that stop the code under test at one point, so a test can act
 * in between (revoke a token while its lookup is under way, fill the lookup queue). Nothing of ours is
 * replaced: every call still reaches the real store.
 */
import type { Database } from "@/lib/db";
import type { Kv, KvPipeline } from "@/lib/kv/types";

/** A point the code under test waits at until the test releases it. */
export interface Gate {
  /** Resolves when the code first waits at the gate. */
  reached: Promise<void>;
  release(): void;
  wait(): Promise<void>;
}

export function gate(): Gate {
  let reach = () => {};
  let release = () => {};
  const reached = new Promise<void>((resolve) => {
    reach = resolve;
  });
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    reached,
    release,
    wait() {
      reach();
      return released;
    },
  };
}

type Around = <T>(touchesKey: boolean, run: () => Promise<T>) => Promise<T>;

/**
 * `kv`, waiting at `at` once: `before` or `after` the first command that sets `key`, whether sent alone or
 * in a pipeline (then before or after the whole pipeline).
 */
export function pauseAtSet(kv: Kv, key: string, moment: "before" | "after", at: Gate): Kv {
  let armed = true;
  const pauseIf = async (touchesKey: boolean) => {
    if (!touchesKey || !armed) return;
    armed = false;
    await at.wait();
  };
  const around: Around = async (touchesKey, run) => {
    if (moment === "before") await pauseIf(touchesKey);
    const result = await run();
    if (moment === "after") await pauseIf(touchesKey);
    return result;
  };
  return {
    ...kv,
    set: (k, value, opts) => around(k === key, () => kv.set(k, value, opts)),
    pipeline: () => watchedPipeline(kv.pipeline(), key, around),
  };
}

function watchedPipeline(inner: KvPipeline, key: string, around: Around): KvPipeline {
  let touchesKey = false;
  const watched: KvPipeline = new Proxy(inner, {
    get(target, property) {
      if (property === "exec") return () => around(touchesKey, () => target.exec());
      const queue = Reflect.get(target, property) as (...args: unknown[]) => unknown;
      return (...args: unknown[]) => {
        if (property === "set" && args[0] === key) touchesKey = true;
        queue.apply(target, args);
        return watched;
      };
    },
  });
  return watched;
}

/** `db`, whose system transactions (token lookups) hold their result at `at` until it is released. */
export function holdSystemReads(db: Database, at: Gate): Database {
  return {
    ...db,
    async withSystem(fn) {
      const result = await db.withSystem(fn);
      await at.wait();
      return result;
    },
  };
}
