/**
 * The long-running server's timers (real ones, shortened): each job runs on its interval, never
 * overlapping itself, with timers that do not keep the process alive, and nothing on Vercel.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import type { BackgroundJobName } from "@/lib/services/ops/background-jobs";
import { scheduleBackgroundJobs } from "@/lib/services/ops/schedule-background-jobs";

const JOBS = [
  { name: "sweep-reservations", everyMs: 20 },
  { name: "prune-traces", everyMs: 20 },
] as const;

let timers: NodeJS.Timeout[] = [];
afterEach(() => {
  for (const timer of timers) clearInterval(timer);
  timers = [];
});

describe("scheduleBackgroundJobs", () => {
  it("runs each job on its interval, a slow run never overlapping itself, on unref'd timers", async () => {
    const started: BackgroundJobName[] = [];
    let running = 0;
    let mostAtOnce = 0;
    timers = scheduleBackgroundJobs({
      env: {},
      jobs: JOBS,
      async run(name) {
        started.push(name);
        if (name !== "prune-traces") return;
        running += 1;
        mostAtOnce = Math.max(mostAtOnce, running);
        await sleep(150); // seven ticks long
        running -= 1;
      },
    });
    expect(timers.map((timer) => timer.hasRef())).toEqual([false, false]);
    await sleep(500);
    const sweeps = started.filter((name) => name === "sweep-reservations").length;
    const prunes = started.filter((name) => name === "prune-traces").length;
    expect(sweeps).toBeGreaterThanOrEqual(5);
    expect(prunes).toBeGreaterThanOrEqual(2);
    expect(prunes).toBeLessThanOrEqual(3);
    expect(mostAtOnce).toBe(1);
  });

  it("keeps running after a failed run", async () => {
    let calls = 0;
    timers = scheduleBackgroundJobs({
      env: {},
      jobs: JOBS.slice(0, 1),
      async run() {
        calls += 1;
        throw new Error("database unavailable");
      },
    });
    await sleep(150);
    expect(calls).toBeGreaterThanOrEqual(3);
  });

  it("schedules nothing on Vercel, where Vercel Cron calls the routes", async () => {
    let calls = 0;
    timers = scheduleBackgroundJobs({
      env: { VERCEL: "1" },
      jobs: JOBS,
      run: async () => {
        calls += 1;
      },
    });
    await sleep(100);
    expect(timers).toEqual([]);
    expect(calls).toBe(0);
  });
});
