/**
 * Each provider's answer to one request, kept on its own beside the tool's whole result: a repeat of a
 * call whose whole result was not cached (a provider failed, so it was partial) asks only the providers
 * whose answer is missing, and the kept answers are fused again at read time. Per tenant, like every
 * result (an answer may have been bought with the tenant's key); the key is the provider and the input
 * that shapes its answer (without the deadline or the fan-out mode, which decide only whom to ask).
 */
import type { TenantContext } from "@/lib/pipeline/context";
import { cacheTtlSeconds, readCachedMany, resultCacheKey, writeCached } from "./result-cache";

const answerKey = (ctx: TenantContext, tool: string, providerId: string, input: unknown) =>
  resultCacheKey(ctx.tenantId, `${tool}:answer`, { provider: providerId, input });

/** The kept answers of `providerIds` to `input`, by provider id (one KV round trip). */
export async function keptAnswers<A>(
  ctx: TenantContext,
  tool: string,
  providerIds: readonly string[],
  input: unknown,
): Promise<Map<string, A>> {
  const answers = await readCachedMany<A>(
    ctx.kv,
    providerIds.map((id) => answerKey(ctx, tool, id, input)),
  );
  const kept = new Map<string, A>();
  providerIds.forEach((id, index) => {
    const answer = answers[index];
    if (answer) kept.set(id, answer);
  });
  return kept;
}

/** Keeps one provider's fresh answer, after the response like the call's other writes (never throws). */
export function keepAnswer(
  ctx: TenantContext,
  tool: string,
  providerId: string,
  input: unknown,
  answer: unknown,
): void {
  ctx.pending.track(
    writeCached(ctx.kv, answerKey(ctx, tool, providerId, input), answer, cacheTtlSeconds(ctx.env)),
  );
}
