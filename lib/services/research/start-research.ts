import type { z } from "zod";
import { assertScope, type TenantContext } from "@/lib/pipeline/context";
import { assertKnownProviders } from "@/lib/pipeline/providers/selection";
import { parseInput } from "@/lib/pipeline/validate";
import { searchProviders } from "@/lib/providers/search";
import { assertOutputSchemaCompiles, researchInput } from "./input";
import { QUEUED, type ResearchJobView, toJobView } from "./job-view";
import { queueJob } from "./queue-job";

/** A hint for a refused start: a research job takes about a minute. */
const RESEARCH_RETRY_SECONDS = 60;

const SEARCH_PROVIDER_IDS: ReadonlySet<string> = new Set(searchProviders.map((provider) => provider.id));

/**
 * Queues a research job (queue-job.ts: the workspace's cap, the worker woken); the caller has its id at once.
 * It needs the `search` scope only: the pages it reads are its own searches' results, read as part of the
 * research, never a URL the caller names. A provider name no search knows is refused now, not by a job
 * that fails a minute later.
 */
export async function startResearch({
  ctx,
  input,
}: {
  ctx: TenantContext;
  input: z.input<typeof researchInput>;
}): Promise<ResearchJobView> {
  assertScope(ctx, "search");
  const parsed = parseInput(researchInput, input);
  await assertOutputSchemaCompiles(parsed);
  assertKnownProviders(parsed.providers, SEARCH_PROVIDER_IDS, "research");
  return toJobView(
    await queueJob(ctx, {
      kind: "research",
      input: parsed,
      progress: QUEUED,
      retryAfterSeconds: RESEARCH_RETRY_SECONDS,
    }),
  );
}
