/**
 * Work a call leaves running after it answers (capabilities.ts' PendingWork), kept so that whoever must
 * see its effects can wait for it: the transports after a response, readers of usage, shutdown.
 */
import { log } from "@/lib/observability/logger";
import type { PendingWork } from "@/lib/pipeline/capabilities";

export function createPendingWork(): PendingWork {
  const running = new Set<Promise<void>>();
  return {
    track(work) {
      const tracked: Promise<void> = work
        .then(
          () => {},
          (error: unknown) => log().warn(error, "work after a response failed"),
        )
        .finally(() => running.delete(tracked));
      running.add(tracked);
    },
    async settled() {
      await Promise.all(running);
    },
  };
}
