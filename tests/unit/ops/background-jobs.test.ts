/**
 * The background jobs agree everywhere they appear: each has its route file (`cronRoute(name)`) and a
 * `vercel.json` cron entry on the table's schedule, and nothing else is scheduled there; a serverless
 * deployment refunds unsettled reservations and resumes abandoned research within minutes.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BACKGROUND_JOBS, cronPath } from "@/lib/services/ops/background-jobs";

const vercel = JSON.parse(readFileSync("vercel.json", "utf8")) as {
  crons: Array<{ path: string; schedule: string }>;
};

describe("background jobs", () => {
  it("are the crons of vercel.json, on the table's schedules", () => {
    expect(vercel.crons).toEqual(
      BACKGROUND_JOBS.map((job) => ({ path: cronPath(job.name), schedule: job.vercelSchedule })),
    );
  });

  it("each have a route running that job", () => {
    for (const job of BACKGROUND_JOBS) {
      expect(readFileSync(`app${cronPath(job.name)}/route.ts`, "utf8")).toContain(
        `GET: cronRoute("${job.name}")`,
      );
    }
  });

  it("run on Vercel within minutes where a user waits (a refund, a job, a webhook), daily for the pruning", () => {
    const schedules = Object.fromEntries(BACKGROUND_JOBS.map((job) => [job.name, job.vercelSchedule]));
    expect(schedules).toEqual({
      "sweep-reservations": "*/5 * * * *",
      "resume-research": "* * * * *",
      "deliver-webhooks": "* * * * *",
      "prune-traces": expect.stringMatching(/^\d+ \d+ \* \* \*$/),
      "prune-oauth": expect.stringMatching(/^\d+ \d+ \* \* \*$/),
    });
  });
});
