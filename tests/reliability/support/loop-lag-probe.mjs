/**
 * Event-loop lag of a server under test, measured inside it without touching the product: preloaded
 * with `node --import` (NODE_OPTIONS) when SMX_LOOP_LAG_DIR is set. Every second it appends that
 * second's p99 and max delay (ms) to `<dir>/lag-<pid>.json`. Read by loop-lag.ts.
 */
import { renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";

const dir = process.env.SMX_LOOP_LAG_DIR;
if (dir) {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const windows = [];
  const file = path.join(dir, `lag-${process.pid}.json`);
  setInterval(() => {
    if (histogram.count > 0) {
      windows.push({ p99: histogram.percentile(99) / 1e6, max: histogram.max / 1e6 });
      histogram.reset();
      // Written aside and renamed, so a reader never sees a half-written file.
      writeFileSync(`${file}.tmp`, JSON.stringify(windows));
      renameSync(`${file}.tmp`, file);
    }
  }, 1_000).unref();
}
