/**
 * MCP progress: when the client sent a progressToken, each provider attempt that finishes is reported
 * ("brave: ok in 212 ms"), and a slow call (answer, fetch) also sends a heartbeat every few seconds, so
 * clients that reset their request timeout on progress do not give up on a two-minute answer. (The
 * transport's SSE keep-alive comments cover proxies either way.)
 */
import type { OnProgress, ProviderProgress } from "@/lib/pipeline/provider-attempts";
import { awaitJob } from "@/lib/services/research/await-job";
import type { JobStatusView } from "@/lib/services/research/job-view";

const HEARTBEAT_MS = 5_000;

interface ProgressNotification {
  method: "notifications/progress";
  params: { progressToken: string | number; progress: number; total?: number; message?: string };
}

/**
 * What reporting progress needs from a tool call's context: v1's handler `extra` has this shape as it is,
 * v2's is adapted to it (revision-2026-07-28.ts), so both eras report alike.
 */
export interface ProgressSink {
  _meta?: { progressToken?: string | number };
  sendNotification(notification: ProgressNotification): Promise<void>;
}

const progressMessage = (event: ProviderProgress) =>
  event.outcome === "cache_hit"
    ? "answered from the cache"
    : `${event.provider}: ${event.outcome.replace("_", " ")} in ${Math.round(event.duration_ms)} ms`;

export async function withProgress<T>(
  extra: ProgressSink,
  tool: string,
  run: (onProgress?: OnProgress) => Promise<T>,
  options: { heartbeat: boolean; intervalMs?: number },
): Promise<T> {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return run();
  const started = Date.now();
  let progress = 0;
  let open = true;
  const notify = (message: string) => {
    if (!open) return;
    progress += 1;
    extra
      .sendNotification({ method: "notifications/progress", params: { progressToken, progress, message } })
      // A closed stream only means the client left; the call itself carries on to settle its charges.
      .catch(() => {
        open = false;
      });
  };
  const timer = options.heartbeat
    ? setInterval(
        () => notify(`${tool} still running after ${Math.round((Date.now() - started) / 1000)} s`),
        options.intervalMs ?? HEARTBEAT_MS,
      )
    : undefined;
  try {
    return await run((event) => notify(progressMessage(event)));
  } finally {
    clearInterval(timer);
    open = false;
  }
}

/**
 * A plain call of a task tool waits while the SDK polls the job; when the client asked for progress, the
 * job's steps are reported until it finishes or the request ends (a send on a closed stream fails, which
 * stops the reporting: after a task-augmented call has answered, for one).
 */
export function reportJobProgress(
  read: () => Promise<JobStatusView>,
  extra: ProgressSink & { signal: AbortSignal },
): void {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return;
  const stop = new AbortController();
  const signal = AbortSignal.any([extra.signal, stop.signal]);
  let updates = 0;
  void awaitJob(read, {
    signal,
    onUpdate: ({ progress }) => {
      // Research counts its steps; a crawl job its pages; either way the count only grows.
      const steps = progress as { message: string; done?: number; total?: number; pages_done?: number };
      updates += 1;
      void extra
        .sendNotification({
          method: "notifications/progress",
          params: {
            progressToken,
            progress: steps.done ?? steps.pages_done ?? updates,
            ...(steps.total !== undefined && { total: steps.total }),
            message: steps.message,
          },
        })
        .catch(() => stop.abort());
    },
  }).catch(() => {});
}
