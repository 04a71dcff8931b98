/**
 * The provider error taxonomy through the real call path (webSearch → runCall → ledger → fake provider), with
 * the providers' documented error answers (tests/fakes/error-answers.ts): a quota refusal (Tavily 432 and
 * 433, Linkup 402 and 429 INSUFFICIENT_FUNDS_CREDITS) is charged nothing, fails no breaker, pauses the key
 * (skipped as `quota_exhausted` without a request), shows on the keys list and fires `key.quota` once; a 403
 * that is not about the key (Linkup IP_NOT_WHITELISTED) leaves the key valid; a request refused as malformed
 * (422) is invalid_request, uncharged, no breaker failure; a call with nothing but waiting providers answers
 * 429 with Retry-After.
 */
import { randomUUID } from "node:crypto";
import { Writable } from "node:stream";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toErrorResponse } from "@/lib/api/errors";
import { webhookDeliveries } from "@/lib/db/schema";
import { createLogger, log, replaceLogger } from "@/lib/observability/logger";
import type { TenantContext } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { breakerKey } from "@/lib/pipeline/health/circuit-breaker";
import { keyId } from "@/lib/pipeline/rate-limit/provider-pause";
import { budgetStatus } from "@/lib/services/budgets/budget-status";
import { listKeys } from "@/lib/services/keys/list-keys";
import { setKey } from "@/lib/services/keys/set-key";
import { webSearch } from "@/lib/services/search/web-search";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { createWebhook } from "@/lib/services/webhooks/create-webhook";
import { toSearchResponse } from "@/lib/tools/responses";
import {
  LINKUP_INSUFFICIENT_CREDITS,
  LINKUP_IP_NOT_WHITELISTED,
  LINKUP_PAYMENT_REQUIRED,
  LINKUP_VALIDATION_ERROR,
  TAVILY_PAYGO_LIMIT,
  TAVILY_PLAN_LIMIT,
} from "@/tests/fakes/error-answers";
import { primaryTarget } from "@/tests/support/database";
import { systemCtx, tenantCtx } from "@/tests/support/platform";
import { fakeBaseUrls, serviceSuite } from "@/tests/support/service-suite";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/support/webhook-receiver";

const OPERATOR_LINKUP = "operator-linkup-key";
const OPERATOR_EXA = "operator-exa-key";
/** More answers than the breakers' threshold (5): none of them may count. */
const MANY = 7;

describe.each(primaryTarget())("provider error taxonomy on $name", (target) => {
  const s = serviceSuite(target, {
    env: (fake) => ({
      LINKUP_API_KEY: OPERATOR_LINKUP,
      EXA_API_KEY: OPERATOR_EXA,
      // Webhooks may point at the loopback receiver.
      SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1",
      ...fakeBaseUrls(fake, ["duckduckgo", "tavily", "linkup", "exa"]),
    }),
  });
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
  });

  const search = (ctx: TenantContext, query: string, providers: string[]) =>
    webSearch({ ctx, input: { query, providers, no_cache: true } });
  const charged = async (ctx: TenantContext, provider: string) => {
    await s.platform.pending.settled();
    return (
      (await budgetStatus({ ctx })).providers.find((p) => p.provider === provider)?.requests.lifetime ?? 0
    );
  };
  const workspace = async (name: string) =>
    tenantCtx(s.platform, (await createTenant({ ctx: systemCtx(s.platform), input: { name } })).id);
  const deliveries = (ctx: TenantContext, event: string) =>
    s.database.db.withSystem((tx) =>
      tx
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.tenantId, ctx.tenantId), eq(webhookDeliveries.eventType, event))),
    );
  const failure = (error: unknown) => {
    expect(error).toBeInstanceOf(ServiceError);
    return error as ServiceError;
  };

  it("Tavily 432 and 433: not charged, the key paused and skipped unsent, shown with until when, key.quota once per turn", async () => {
    const ctx = await workspace(`tavily-${randomUUID()}`);
    await createWebhook({ ctx, input: { url: receiver.url, events: ["key.quota", "key.invalid"] } });
    const key = `tvly-${randomUUID()}`;
    await setKey({ ctx, input: { provider: "tavily", key } });
    s.fake.setScenario("tavily", TAVILY_PLAN_LIMIT);

    // Two calls meet the refusal at once: one turn into the quota state, one event.
    const refused = await Promise.all([
      search(ctx, "plan limit 1", ["tavily", "duckduckgo"]),
      search(ctx, "plan limit 2", ["tavily", "duckduckgo"]),
    ]);
    for (const result of refused) {
      expect(result.providers_failed).toEqual([
        expect.objectContaining({ provider: "tavily", reason: "quota_exhausted", status: 432 }),
      ]);
      expect(result.providers_failed[0]?.message).toMatch(/plan limit is used up \(HTTP 432\)/);
      expect(result.providers_failed[0]?.message).not.toContain(key);
    }
    expect(s.fake.requests("tavily")).toHaveLength(2);
    expect(await charged(ctx, "tavily")).toBe(0);
    expect(s.platform.breakers.state(breakerKey("tavily", key), ctx.tenantId)).toBe("closed");

    const [stored] = (await listKeys({ ctx })).filter((k) => k.provider === "tavily");
    expect(stored?.status).not.toBe("invalid");
    // Tavily names no reset: the default pause, an hour.
    const pausedFor = (stored?.quotaUntil?.getTime() ?? 0) - Date.now();
    expect(pausedFor).toBeGreaterThan(3_000_000);
    expect(pausedFor).toBeLessThanOrEqual(3_600_000);
    const events = await deliveries(ctx, "key.quota");
    expect(events).toHaveLength(1);
    expect(events[0]?.payload).toMatchObject({
      type: "key.quota",
      data: { provider: "tavily", last4: key.slice(-4), until: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
    });

    // The provider would answer now; the key waits for its reset, skipped without a request.
    s.fake.resetScenarios();
    const skipped = await search(ctx, "while paused", ["tavily", "duckduckgo"]);
    expect(toSearchResponse(skipped).providers_skipped).toEqual([
      { provider: "tavily", reason: "quota_exhausted" },
    ]);
    expect(skipped.providers_failed).toEqual([
      expect.objectContaining({ provider: "tavily", reason: "quota_exhausted", duration_ms: 0 }),
    ]);
    expect(skipped.providers_failed[0]?.message).toMatch(/paused until \d{4}-\d\d-\d\dT/);
    expect(skipped.spans.find((span) => span.provider === "tavily")?.outcome).toBe("skipped_quota");
    expect(s.fake.requests("tavily")).toHaveLength(2);

    // Nothing else to ask: 429 with the pause's end as Retry-After, never 502.
    const error = failure(await search(ctx, "tavily only", ["tavily"]).catch((e: unknown) => e));
    expect(error.code).toBe("rate_limited");
    expect(error.retryAfterSeconds).toBeGreaterThan(3_000);
    const response = toErrorResponse(error, "request-1");
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("retry-after"))).toBe(error.retryAfterSeconds);
    expect(await deliveries(ctx, "key.quota")).toHaveLength(1);

    // A new key is a new quota: 433 (pay-as-you-go), a new turn, a second event.
    await setKey({ ctx, input: { provider: "tavily", key: `tvly-${randomUUID()}` } });
    expect((await listKeys({ ctx })).find((k) => k.provider === "tavily")?.quotaUntil).toBeNull();
    s.fake.setScenario("tavily", TAVILY_PAYGO_LIMIT);
    const paygo = await search(ctx, "paygo", ["tavily", "duckduckgo"]);
    expect(paygo.providers_failed).toEqual([
      expect.objectContaining({ provider: "tavily", reason: "quota_exhausted", status: 433 }),
    ]);
    expect(paygo.providers_failed[0]?.message).toMatch(/pay-as-you-go limit is reached/);
    expect(await charged(ctx, "tavily")).toBe(0);
    await s.platform.pending.settled();
    expect(await deliveries(ctx, "key.quota")).toHaveLength(2);
    expect(await deliveries(ctx, "key.invalid")).toHaveLength(0);
  });

  it("Linkup 402 and 429 INSUFFICIENT_FUNDS_CREDITS: quota, never a breaker failure however many", async () => {
    const ctx = await workspace(`linkup-${randomUUID()}`);
    const quotaPause = `smx:quota:${keyId("linkup", OPERATOR_LINKUP)}`;
    for (let i = 0; i < MANY; i++) {
      s.fake.setScenario("linkup", i % 2 === 0 ? LINKUP_PAYMENT_REQUIRED : LINKUP_INSUFFICIENT_CREDITS);
      const result = await search(ctx, `no credit ${i}`, ["linkup", "duckduckgo"]);
      expect(result.providers_failed).toEqual([
        expect.objectContaining({
          provider: "linkup",
          reason: "quota_exhausted",
          status: i % 2 === 0 ? 402 : 429,
        }),
      ]);
      // The key is paused for everyone; lifted here so that the next call meets the provider again.
      expect(await s.platform.kv.get(quotaPause)).not.toBeNull();
      await s.platform.kv.del(quotaPause);
    }
    expect(s.fake.requests("linkup")).toHaveLength(MANY);
    expect(s.platform.breakers.state(breakerKey("linkup", OPERATOR_LINKUP), ctx.tenantId)).toBe("closed");
    expect(await charged(ctx, "linkup")).toBe(0);
  });

  it("Linkup 403 IP_NOT_WHITELISTED is about this server's address: the key stays valid, no key.invalid", async () => {
    const ctx = await workspace(`linkup-ip-${randomUUID()}`);
    await createWebhook({ ctx, input: { url: receiver.url, events: ["key.invalid"] } });
    await setKey({ ctx, input: { provider: "linkup", key: `linkup-${randomUUID()}` } });
    s.fake.setScenario("linkup", LINKUP_IP_NOT_WHITELISTED);
    const result = await search(ctx, "ip allow-list", ["linkup", "duckduckgo"]);
    expect(result.providers_failed).toEqual([
      expect.objectContaining({ provider: "linkup", reason: "blocked", status: 403 }),
    ]);
    const said = result.providers_failed[0]?.message ?? "";
    expect(said).toMatch(/refused this server's IP address/);
    expect(said).not.toMatch(/rejected the API key/);
    await s.platform.pending.settled();
    expect((await listKeys({ ctx })).find((k) => k.provider === "linkup")?.status).not.toBe("invalid");
    expect(await deliveries(ctx, "key.invalid")).toHaveLength(0);
    expect(await charged(ctx, "linkup")).toBe(0);
  });

  it("a keyless provider's 403 says the provider refused the request, not the key", async () => {
    const ctx = await workspace(`keyless-${randomUUID()}`);
    s.fake.setScenario("duckduckgo", { status: 403 });
    const error = failure(await search(ctx, "keyless 403", ["duckduckgo"]).catch((e: unknown) => e));
    expect(error.message).toMatch(/duckduckgo: blocked/);
    expect(error.message).not.toMatch(/API key/);
    const [failed] = error.details as Array<{ reason: string; message: string }>;
    expect(failed).toMatchObject({ reason: "blocked" });
    expect(failed?.message).toMatch(/refused the request \(HTTP 403\)/);
    expect(failed?.message).not.toMatch(/API key/);
  });

  it("a 400 or 422 is invalid_request: not charged, no breaker failure, the key untouched, logged as a defect", async () => {
    const ctx = await workspace(`invalid-${randomUUID()}`);
    const logLines: string[] = [];
    const previousLogger = log();
    replaceLogger(
      createLogger(
        new Writable({
          write(chunk, _encoding, done) {
            logLines.push(String(chunk));
            done();
          },
        }),
        "info",
      ),
    );
    try {
      await refusedAsInvalid(ctx);
    } finally {
      replaceLogger(previousLogger);
    }
    const defects = logLines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.provider === "exa" && entry.status === 422);
    expect(defects).toHaveLength(MANY);
    // pino's level 50 is "error".
    expect(defects[0]).toMatchObject({
      level: 50,
      kind: "search",
      msg: expect.stringMatching(/refused our request/),
    });
    expect(logLines.join("\n")).not.toContain(OPERATOR_EXA);
  });

  async function refusedAsInvalid(ctx: TenantContext) {
    s.fake.setScenario("exa", { status: 422 });
    for (let i = 0; i < MANY; i++) {
      const result = await search(ctx, `refused ${i}`, ["exa", "duckduckgo"]);
      expect(result.providers_failed).toEqual([
        expect.objectContaining({ provider: "exa", reason: "invalid_request", status: 422 }),
      ]);
    }
    expect(s.fake.requests("exa")).toHaveLength(MANY); // never paused: it is our request, not the key
    expect(s.platform.breakers.state(breakerKey("exa", OPERATOR_EXA), ctx.tenantId)).toBe("closed");
    expect(await charged(ctx, "exa")).toBe(0);
    // Linkup's documented 400, which names the field it refused.
    s.fake.setScenario("linkup", LINKUP_VALIDATION_ERROR);
    const linkup = await search(ctx, "refused by linkup", ["linkup", "duckduckgo"]);
    expect(linkup.providers_failed).toEqual([
      expect.objectContaining({ provider: "linkup", reason: "invalid_request", status: 400 }),
    ]);
    expect(linkup.providers_failed[0]?.message).toMatch(/refused the request as invalid.*outputType/);
    expect(await charged(ctx, "linkup")).toBe(0);
  }
});
