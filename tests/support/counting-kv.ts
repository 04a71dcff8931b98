import type { Kv } from "@/lib/kv/types";

/** A real KV counting the round trips made through it: single reads and writes, and pipelines. */
export function countingKv(inner: Kv): Kv & { roundTrips: number } {
  const counted: Kv & { roundTrips: number } = {
    ...inner,
    roundTrips: 0,
    get: (key) => {
      counted.roundTrips++;
      return inner.get(key);
    },
    set: (key, value, options) => {
      counted.roundTrips++;
      return inner.set(key, value, options);
    },
    pipeline: () => {
      const pipeline = inner.pipeline();
      const exec = pipeline.exec.bind(pipeline);
      pipeline.exec = () => {
        counted.roundTrips++;
        return exec();
      };
      return pipeline;
    },
  };
  return counted;
}
