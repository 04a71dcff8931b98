/**
 * The operator's live check of its providers (`npm run smx -- providers verify`): one real call, the
 * cheapest kind the provider serves, per provider the operator's environment configures — those with an
 * operator key, the keyless ones and those whose key is optional, SearXNG and the operator model once
 * their URL (and model) are set. Each call goes through the provider's adapter (probe-provider.ts), so a
 * refused key is `bad_key` and an answer of another shape than the adapter's schema `invalid_response`.
 * The direct fetcher is left out: it is no provider's API, just the target page itself.
 *
 * Operator only, and on the operator's own keys: no tenant, so nothing is written to any workspace's
 * usage, budgets or traces. Messages are redacted of the operator's keys.
 */
import { z } from "zod";
import { requestCostMicros } from "@/lib/engine/shared/price";
import type { AttemptReport, ProviderRegistration } from "@/lib/engine/shared/types";
import { redactText } from "@/lib/observability/redact";
import { microsToUsd, usdToMicros } from "@/lib/pipeline/budgets/units";
import type { Env } from "@/lib/pipeline/capabilities";
import type { TenantContext } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { isBilledFailure } from "@/lib/pipeline/provider-attempts";
import { type CatalogEntry, providerCatalog } from "@/lib/pipeline/providers/catalog";
import {
  operatorKey,
  operatorProviderEntries,
  withOperatorModel,
} from "@/lib/pipeline/providers/operator-providers";
import { priceWithOverrides } from "@/lib/pipeline/providers/prices";
import { parseInput } from "@/lib/pipeline/validate";
import { answerProviders } from "@/lib/providers/answer";
import { OPERATOR_LLM_MODEL_ENV } from "@/lib/providers/answer/openai-compatible";
import {
  type ProbeKind,
  type ProbeTarget,
  probeProvider,
  probeTargets,
} from "@/lib/services/keys/probe-provider";

export const verifyProvidersInput = z.strictObject({
  provider: z.string().trim().toLowerCase().min(1).max(40).optional(),
});

/** One provider's check: what was called, whether it answered as its adapter expects, in what time, for what. */
interface ProviderCheck {
  provider: string;
  kind: ProbeKind;
  ok: boolean;
  /** The failure reason (`bad_key`, `invalid_response`, `timeout`, …); null when ok. */
  reason: string | null;
  message: string | null;
  ms: number;
  /** What the call cost: the declared price when the provider bills it (an answer, a billed failure), else 0. */
  usd: number;
}

export interface ProvidersVerification {
  checks: ProviderCheck[];
  total_usd: number;
  /** The providers that did not answer as their adapters expect. */
  failed: string[];
}

/** A provider the environment configures, and the kind of call its check makes. */
interface CheckPlan {
  id: string;
  kind: ProbeKind;
  registration: ProviderRegistration;
  apiKey?: string;
}

/**
 * What one check call costs: a call of one result at the price the operator's environment charges (the
 * table's, or its SEARCHMUX_PRICES override). The one place this check reads a price.
 */
const checkPriceUsd = (registration: ProviderRegistration, env: Env): number =>
  microsToUsd(requestCostMicros(priceWithOverrides(registration.price, env), 1));

/** Providers that are no third-party API: the direct fetcher requests the target itself. */
const isBuiltIn = ({ provider }: ProbeTarget) =>
  "fetchesOrigin" in provider && provider.fetchesOrigin === true;

/** The kinds of call a check of `id` may make: every probe of it but the built-in ones. */
const checkTargets = (id: string) => probeTargets(id).filter((target) => !isBuiltIn(target));

/** Whether the operator's environment makes this call possible (the operator model also needs its model). */
function configured({ kind, provider }: ProbeTarget, env: Env): boolean {
  if (kind !== "answer") return operatorProviderEntries([provider], env).length > 0;
  const answerer = answerProviders.filter((p) => p === provider);
  return withOperatorModel(operatorProviderEntries(answerer, env), env).length > 0;
}

/** On a price tie, the call with the smaller answer: one search or paper result, then a page, then a reply. */
const TIE_ORDER: readonly ProbeKind[] = ["search", "papers", "fetch", "answer"];
const tieRank = (target: ProbeTarget) => TIE_ORDER.indexOf(target.kind);

/** Per provider id the environment configures, its cheapest kind of call. */
function checkPlans(env: Env): Map<string, CheckPlan> {
  const plans = new Map<string, CheckPlan>();
  for (const id of providerCatalog().keys()) {
    for (const target of checkTargets(id).sort((a, b) => tieRank(a) - tieRank(b))) {
      if (!configured(target, env)) continue;
      const known = plans.get(id);
      if (known && checkPriceUsd(known.registration, env) <= checkPriceUsd(target.provider, env)) continue;
      plans.set(id, {
        id,
        kind: target.kind,
        registration: target.provider,
        apiKey: operatorKey(target.provider.keyEnv, env),
      });
    }
  }
  return plans;
}

/**
 * What an unconfigured provider needs: its key, or, for one that works without a key, its base URL (SearXNG)
 * and, for the operator model, the model's name.
 */
function missingSettings(catalog: CatalogEntry): string {
  if (catalog.keyEnv.length > 0 && !catalog.keyOptional) return catalog.keyEnv.join(" or ");
  const targets = checkTargets(catalog.id);
  const settings = targets.map((target) => target.provider.baseUrlEnv);
  // The operator model, the one answer provider without a default model, is offered once it is named.
  if (targets.some(({ provider }) => answerProviders.some((p) => p === provider && p.defaultModel === "")))
    settings.push(OPERATOR_LLM_MODEL_ENV);
  return [...new Set(settings)].join(" and ");
}

/** Every operator key in the environment: what no message may show. */
function operatorSecrets(env: Env): string[] {
  return [...providerCatalog().values()].flatMap((entry) =>
    entry.keyEnv.map((name) => env[name]?.trim() ?? "").filter(Boolean),
  );
}

async function check(plan: CheckPlan, env: Env, secrets: readonly string[]): Promise<ProviderCheck> {
  let report: AttemptReport | undefined;
  const started = performance.now();
  let failure: { reason: string; message?: string } | undefined;
  try {
    const probed = await probeProvider(
      { id: plan.id, apiKey: plan.apiKey, env, kind: plan.kind },
      async () => ({
        ok: true,
        settled: (attempt) => (report = attempt),
      }),
    );
    failure = probed === "unsupported" ? { reason: "not_configured" } : probed;
  } catch (error) {
    failure = { reason: "error", message: error instanceof Error ? error.message : String(error) };
  }
  const billed = report !== undefined && (!report.failure || isBilledFailure(report.failure.reason));
  return {
    provider: plan.id,
    kind: plan.kind,
    ok: failure === undefined,
    reason: failure?.reason ?? null,
    message: failure?.message === undefined ? null : redactText(failure.message, secrets),
    ms: report?.span.duration_ms ?? Math.round(performance.now() - started),
    usd: billed ? microsToUsd(report?.costMicros ?? usdToMicros(checkPriceUsd(plan.registration, env))) : 0,
  };
}

export async function verifyProviders({
  ctx,
  input,
}: {
  ctx: TenantContext;
  input: z.input<typeof verifyProvidersInput>;
}): Promise<ProvidersVerification> {
  // The operator's keys pay; a workspace never spends them on a check.
  if (ctx.actor.kind !== "operator")
    throw new ServiceError("forbidden", "only the operator may check the operator's providers");
  const { provider } = parseInput(verifyProvidersInput, input);
  const plans = checkPlans(ctx.env);
  if (provider !== undefined) {
    const catalog = providerCatalog().get(provider);
    if (!catalog) {
      const known = [...plans.keys()].sort().join(", ") || "none";
      throw new ServiceError("not_found", `unknown provider '${provider}' (configured here: ${known})`);
    }
    // The direct fetcher calls no provider; the workspace model is each workspace's, never the operator's.
    if (checkTargets(provider).length === 0)
      throw new ServiceError("not_found", `'${provider}' is no provider the operator's keys call`);
    if (!plans.has(provider))
      throw new ServiceError(
        "no_provider_configured",
        `'${provider}' is not configured here: set ${missingSettings(catalog)}`,
      );
  }
  const selected = [...plans.values()].filter((plan) => provider === undefined || plan.id === provider);
  const secrets = operatorSecrets(ctx.env);
  const checks = await Promise.all(selected.map((plan) => check(plan, ctx.env, secrets)));
  checks.sort((a, b) => a.provider.localeCompare(b.provider));
  return {
    checks,
    total_usd: microsToUsd(checks.reduce((sum, c) => sum + usdToMicros(c.usd), 0)),
    failed: checks.filter((c) => !c.ok).map((c) => c.provider),
  };
}
