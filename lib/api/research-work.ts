import { config } from "@/lib/config";
import { researchWorker } from "@/lib/services/research/worker";
import { afterResponse } from "./after-response";

/**
 * After a request that may have woken the research worker (a job queued or refused at the cap, a status
 * read of a job nobody ran, a resume-research run): a serverless platform freezes the function once its
 * after() tasks end, so there the request is kept (up to the route's maxDuration) until this instance's
 * worker is idle; a job cut off by the limit is resumed from its checkpoint by the next worker. A
 * long-running server just lets the worker go on. Costs nothing when the worker is idle.
 */
export function keepWorkingAfterResponse(): void {
  if (config().serverless) afterResponse(() => researchWorker().idle());
}
