/**
 * The one path of the operator's verbs (`smx search|answer|papers|fetch`, the local MCP server): the
 * operator's providers from the environment, the caller's subset of them (unknown names and ones without
 * a key are input errors), the engine, and an error when nothing succeeded. No tenant, budget, cache or
 * trace: a tenant's calls take run-call.ts.
 */
import type { ProviderFailure, ProviderRegistration, ResolvedProvider } from "@/lib/engine/shared/types";
import type { Env } from "./context";
import { selectProviders, throwIfNothingSucceeded } from "./providers/selection";

/** What an operator verb runs with: the operator's environment and the caller's cancellation. */
export interface OperatorContext {
  env: Env;
  signal?: AbortSignal;
}

export interface OperatorCallSpec<E extends ResolvedProvider<ProviderRegistration>, R> {
  /** The tool, as named in "no … provider is available". */
  tool: string;
  /** Every provider of the tool, so that an unknown name is told from one without a key. */
  registry: readonly ProviderRegistration[];
  /** The operator's entries of the registry (operator-providers.ts), the tool's settings applied. */
  available: readonly E[];
  /** The caller's explicit provider subset, if any. */
  wanted: readonly string[] | undefined;
  run(entries: E[]): Promise<R>;
  /** How many providers produced something usable; absent when `run` itself throws on nothing (fetch). */
  succeeded?(result: R): number;
}

interface Outcome {
  providers_failed: ReadonlyArray<Pick<ProviderFailure, "provider"> & { reason: string }>;
}

export async function runOperatorCall<E extends ResolvedProvider<ProviderRegistration>, R extends Outcome>(
  spec: OperatorCallSpec<E, R>,
): Promise<R> {
  const known = new Set(spec.registry.map((provider) => provider.id));
  const entries = selectProviders(spec.wanted, known, spec.available, spec.tool);
  const result = await spec.run(entries);
  if (spec.succeeded !== undefined) {
    throwIfNothingSucceeded({ succeeded: spec.succeeded(result), providers_failed: result.providers_failed });
  }
  return result;
}
