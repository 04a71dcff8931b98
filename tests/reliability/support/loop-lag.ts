/** Reads what loop-lag-probe.mjs recorded inside a server process. */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const PROBE = path.join(import.meta.dirname, "loop-lag-probe.mjs");

export interface LoopLagProbe {
  /** Env for the server process (merge into its environment). */
  env: Record<string, string>;
  /** NODE_OPTIONS for the server process. */
  nodeOptions: string;
  /** Worst one-second window of the process so far: its p99 and the largest single delay, in ms. */
  worst(pid: number): { p99: number; max: number; windows: number };
  /** Deletes what was recorded; once the server processes have stopped. */
  remove(): void;
}

export function loopLagProbe(): LoopLagProbe {
  const dir = mkdtempSync(path.join(tmpdir(), "smx-loop-lag-"));
  return {
    env: { SMX_LOOP_LAG_DIR: dir },
    nodeOptions: `--import ${PROBE}`,
    worst(pid) {
      let windows: Array<{ p99: number; max: number }> = [];
      try {
        windows = JSON.parse(readFileSync(path.join(dir, `lag-${pid}.json`), "utf8"));
      } catch {
        // nothing recorded yet
      }
      return {
        p99: Math.max(0, ...windows.map((w) => w.p99)),
        max: Math.max(0, ...windows.map((w) => w.max)),
        windows: windows.length,
      };
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
