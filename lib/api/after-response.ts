import { after } from "next/server";
import { log } from "@/lib/observability/logger";

/**
 * Runs `task` once the response is sent (Next.js `after()`, which the platform keeps alive for it).
 * Outside a Next.js request scope (route handlers called from tests or scripts) it runs right away.
 */
export function afterResponse(task: () => Promise<void>): void {
  try {
    after(task);
  } catch {
    void task().catch((error: unknown) => log().error(error, "after-response task failed"));
  }
}
