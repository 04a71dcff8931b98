import { metrics } from "@/lib/observability/metrics";
import type { Platform } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { secretEquals } from "@/lib/pipeline/secret-equals";

/**
 * This process's metrics in Prometheus text format, for the operator only. Breaker states are
 * read at scrape time, grouped by provider (never by key).
 */
export async function metricsText({
  ctx,
  input,
}: {
  ctx: Platform;
  input: { token: string | null; operatorToken: string | undefined };
}) {
  if (!input.operatorToken) throw new ServiceError("not_found", "metrics are not enabled");
  if (!secretEquals(input.token, input.operatorToken))
    throw new ServiceError("unauthorized", "the operator token is required");
  const m = metrics();
  m.openBreakers.reset();
  for (const { key, state } of ctx.breakers.notClosed()) {
    m.openBreakers.inc({ provider: key.slice(0, key.indexOf(":")), state });
  }
  return { contentType: m.registry.contentType, body: await m.registry.metrics() };
}
