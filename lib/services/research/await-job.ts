import { isFinished, type JobStatusView } from "./job-view";

/** How often a caller waiting on a job reads its row. */
const POLL_MS = 1_000;

/**
 * Waits for a job to finish, reading it (`read`) every POLL_MS and telling `onUpdate` of each change of
 * progress: for callers that hold a connection open (an MCP call without tasks, the CLI). The job runs on
 * whichever instance claimed it; `signal` stops the waiting, never the job.
 */
export async function awaitJob<View extends JobStatusView>(
  read: () => Promise<View>,
  { signal, onUpdate }: { signal?: AbortSignal; onUpdate?: (job: View) => void } = {},
): Promise<View> {
  let seen = "";
  for (;;) {
    const job = await read();
    const progress = JSON.stringify(job.progress);
    if (progress !== seen) {
      seen = progress;
      onUpdate?.(job);
    }
    if (isFinished(job.status)) return job;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, POLL_MS);
      signal?.addEventListener(
        "abort",
        () => {
          clearTimeout(timer);
          reject(signal.reason);
        },
        { once: true },
      );
    });
  }
}
