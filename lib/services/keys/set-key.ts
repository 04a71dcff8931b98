import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { providerKeys } from "@/lib/db/schema";
import { checkEndpoint } from "@/lib/http/endpoint-request";
import { ProviderError } from "@/lib/http/provider-error";
import { writeAudit } from "@/lib/pipeline/audit";
import type { Env } from "@/lib/pipeline/capabilities";
import { assertScope, type TenantContext } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { seal } from "@/lib/pipeline/keys/key-encryption";
import { keyFingerprint } from "@/lib/pipeline/keys/key-fingerprint";
import { keyedProvider, providerCatalog } from "@/lib/pipeline/providers/catalog";
import { priceWithOverrides } from "@/lib/pipeline/providers/prices";
import { forgetTenantKeys } from "@/lib/pipeline/providers/resolve-keys";
import {
  endpointGuard,
  type WorkspaceModelSettings,
  workspaceModelSettings,
} from "@/lib/pipeline/providers/workspace-model";
import { parseInput } from "@/lib/pipeline/validate";
import { insertDefaultBudget } from "@/lib/services/budgets/default-budget";
import { freeTierMetric, freeTierSize } from "@/lib/services/budgets/free-tier";

const { base_url, model, price_per_mtok } = workspaceModelSettings.shape;
const SETTINGS_FIELDS = ["base_url", "model", "price_per_mtok"] as const;
const ONLY_FOR = "only for a provider the workspace configures itself (workspace_llm)";

export const setKeyInput = z
  .strictObject({
    provider: z.string().trim().toLowerCase().min(1).max(40),
    key: z.string().trim().min(8).max(4096),
    base_url: base_url.optional().describe(`${base_url.description}; ${ONLY_FOR}, and required there`),
    model: model.optional().describe(`${model.description}; ${ONLY_FOR}, and required there`),
    price_per_mtok: price_per_mtok
      .optional()
      .describe(`${price_per_mtok.description}; ${ONLY_FOR}, and required there`),
  })
  .superRefine((input, ctx) => {
    const own = providerCatalog().get(input.provider)?.configuredByWorkspace === true;
    for (const field of SETTINGS_FIELDS) {
      if (own && input[field] === undefined)
        ctx.addIssue({ code: "custom", path: [field], message: `is required for ${input.provider}` });
      if (!own && input[field] !== undefined)
        ctx.addIssue({ code: "custom", path: [field], message: `is ${ONLY_FOR}` });
    }
  });

/**
 * Where a workspace's base URL may point, checked before anything is stored (and again on every call, by
 * the guard its requests go through): a refusal is a 400 on `base_url` naming the rule, never anything the
 * address answered (nothing is sent to it here).
 */
async function checkBaseUrl(baseUrl: string, env: Env): Promise<void> {
  const url = new URL(baseUrl);
  let refusal: string;
  try {
    await checkEndpoint(url, endpointGuard(env));
    return;
  } catch (error) {
    // The guard's rule (SsrfBlocked), a name without an address, or the resolver's own error (getaddrinfo).
    if (error instanceof ProviderError) refusal = error.message;
    else if (error instanceof Error && "code" in error) refusal = `${url.hostname} does not resolve`;
    else throw error;
  }
  const message = `refused: ${refusal}`;
  throw new ServiceError("invalid_input", `base_url: ${message}`, [{ path: "base_url", message }]);
}

/**
 * Stores (or replaces) the tenant's key for a provider, encrypted; returns only its last 4. A provider the
 * workspace configures itself (the workspace model) takes its settings too: checked, stored beside the key
 * and bound into its encryption (key-encryption.ts), so the key is only ever read with the base URL it was
 * saved for.
 */
export async function setKey({ ctx, input }: { ctx: TenantContext; input: z.input<typeof setKeyInput> }) {
  assertScope(ctx, "admin");
  const parsed = parseInput(setKeyInput, input);
  const { provider, key } = parsed;
  const entry = keyedProvider(provider);
  if (!entry) throw new ServiceError("invalid_input", `'${provider}' is not a provider that takes a key`);
  const settings: WorkspaceModelSettings | null = entry.configuredByWorkspace
    ? parseInput(workspaceModelSettings, {
        base_url: parsed.base_url,
        model: parsed.model,
        price_per_mtok: parsed.price_per_mtok,
      })
    : null;
  if (settings) await checkBaseUrl(settings.base_url, ctx.env);
  const last4 = key.slice(-4);

  const stored = await ctx.db.withTenant(ctx.tenantId, async (tx) => {
    const [existing] = await tx
      .select({ id: providerKeys.id })
      .from(providerKeys)
      .where(and(eq(providerKeys.tenantId, ctx.tenantId), eq(providerKeys.provider, provider)))
      .for("update");
    const id = existing?.id ?? randomUUID();
    const sealed = seal(ctx.keyring, key, {
      tenantId: ctx.tenantId,
      provider,
      rowId: id,
      ...(settings && { endpoint: settings.base_url }),
    });
    const values = {
      ...sealed,
      fingerprint: keyFingerprint(
        ctx.keyring,
        { tenantId: ctx.tenantId, provider, ...(settings && { endpoint: settings.base_url }) },
        key,
      ),
      last4,
      settings,
      status: "unknown" as const,
      checkedAt: null,
      // A new key has its own quota: the old one's state does not carry over.
      quotaUntil: null,
      updatedAt: ctx.now(),
    };
    if (existing) await tx.update(providerKeys).set(values).where(eq(providerKeys.id, id));
    else await tx.insert(providerKeys).values({ id, tenantId: ctx.tenantId, provider, ...values });
    await writeAudit(tx, {
      tenantId: ctx.tenantId,
      actor: ctx.actor,
      action: existing ? "key.replace" : "key.create",
      targetType: "provider_key",
      targetId: id,
      details: {
        provider,
        last4,
        ...(settings && { host: new URL(settings.base_url).host, model: settings.model }),
      },
    });
    // With a first key, a hard budget of the provider's free tier (unless one exists): a new key never spends
    // beyond the free tier until an admin raises it.
    const freeTier = priceWithOverrides(entry.price, ctx.env).free_tier;
    if (!existing && freeTier) {
      await insertDefaultBudget(tx, ctx, {
        provider,
        // A tier of dollars of credit (Brave's $5 a month) is a budget in dollars.
        metric: freeTierMetric(freeTier),
        period: freeTier.period,
        limit: freeTierSize(freeTier),
        reason: "free tier",
      });
    }
    return { provider, last4, status: "unknown" as const };
  });
  forgetTenantKeys(ctx.tenantId);
  return stored;
}
