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

/** A promise and what settles it (Node 20 has no Promise.withResolvers). */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

let timers: NodeJS.Timeout[] = [];
afterEach(() => {
  for (const timer of timers) clearInterval(timer);
  timers = [];
});

describe("scheduleBackgroundJobs", () => {
  it("runs each job on its interval, a slow run never overlapping itself, on unref'd timers", async () => {
    // Counted by events, not elapsed time: five sweeps tick while the first prune is held open, and every
    // prune tick meanwhile is skipped; released, the prune runs again.
    const started: BackgroundJobName[] = [];
    const count = (name: BackgroundJobName) => started.filter((job) => job === name).length;
    let running = 0;
    let mostAtOnce = 0;
    const fiveSweeps = signal();
    const secondPrune = signal();
    const firstPruneHeld = signal();
    timers = scheduleBackgroundJobs({
      env: {},
      jobs: JOBS,
      async run(name) {
        started.push(name);
        if (name === "sweep-reservations") {
          if (count(name) === 5) fiveSweeps.resolve();
          return;
        }
        running += 1;
        mostAtOnce = Math.max(mostAtOnce, running);
        if (count(name) === 1) await firstPruneHeld.promise;
        else secondPrune.resolve();
        running -= 1;
      },
    });
    expect(timers.map((timer) => timer.hasRef())).toEqual([false, false]);
    await fiveSweeps.promise;
    expect(count("prune-traces")).toBe(1);
    firstPruneHeld.resolve();
    await secondPrune.promise;
    expect(mostAtOnce).toBe(1);
  });

  it("overlaps a job's runs up to its bound (webhook deliveries waiting on slow receivers), never beyond", async () => {
    // Counted by events: while three deliveries runs hang, five sweeps tick, and no fourth delivery run starts.
    let deliveryRuns = 0;
    let sweeps = 0;
    const fiveSweeps = signal();
    const hung = signal();
    timers = scheduleBackgroundJobs({
      env: {},
      jobs: [
        { name: "deliver-webhooks", everyMs: 10, overlap: 3 },
        { name: "sweep-reservations", everyMs: 20 },
      ],
      async run(name) {
        if (name === "sweep-reservations") {
          sweeps += 1;
          if (sweeps === 5) fiveSweeps.resolve();
          return;
        }
        deliveryRuns += 1;
        await hung.promise;
      },
    });
    await fiveSweeps.promise;
    expect(deliveryRuns).toBe(3);
    hung.resolve();
  });

  it("keeps running after a failed run", async () => {
    const thirdCall = signal();
    let calls = 0;
    timers = scheduleBackgroundJobs({
      env: {},
      jobs: JOBS.slice(0, 1),
      async run() {
        calls += 1;
        if (calls === 3) thirdCall.resolve();
        throw new Error("database unavailable");
      },
    });
    // Bounded by the test's timeout: two failed runs before it, the job still ticks.
    await thirdCall.promise;
    expect(calls).toBe(3);
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
