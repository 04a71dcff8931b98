/**
 * Each search adapter with error rules (lib/providers/error-rules.ts), answered by the fake server with the
 * provider's documented error status and body: the reason the rule gives, never the generic one it replaces.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ProviderError } from "@/lib/engine/shared/errors";
import type { FailureReason } from "@/lib/http/provider-error";
import { getSearchProvider } from "@/lib/providers/search";
import {
  LINKUP_INSUFFICIENT_CREDITS,
  LINKUP_IP_NOT_WHITELISTED,
  LINKUP_PAYMENT_REQUIRED,
  TAVILY_PAYGO_LIMIT,
  TAVILY_PLAN_LIMIT,
} from "@/tests/fakes/error-answers";
import { providerCall } from "@/tests/fakes/provider-call";
import { type FakeProviders, type FakeScenario, startFakeProviders } from "@/tests/fakes/provider-server";

let fake: FakeProviders;
beforeAll(async () => {
  fake = await startFakeProviders();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.resetScenarios());

async function failureOf(id: string, scenario: FakeScenario): Promise<ProviderError> {
  fake.setScenario(id, scenario);
  const provider = getSearchProvider(id);
  if (!provider) throw new Error(`no provider ${id}`);
  const error = await provider.search(providerCall(fake.baseUrlFor(id))).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

describe("providers' own error answers", () => {
  const cases: Array<[string, string, FakeScenario, FailureReason, RegExp]> = [
    ["tavily", "432", TAVILY_PLAN_LIMIT, "quota_exhausted", /plan limit is used up/],
    ["tavily", "433", TAVILY_PAYGO_LIMIT, "quota_exhausted", /pay-as-you-go limit/],
    ["linkup", "402", LINKUP_PAYMENT_REQUIRED, "quota_exhausted", /payment required/],
    [
      "linkup",
      "429 INSUFFICIENT_FUNDS_CREDITS",
      LINKUP_INSUFFICIENT_CREDITS,
      "quota_exhausted",
      /no credits/,
    ],
    ["linkup", "403 IP_NOT_WHITELISTED", LINKUP_IP_NOT_WHITELISTED, "blocked", /IP address/],
    [
      "serpapi",
      "429 out of searches",
      {
        status: 429,
        // serpapi.com/api-status-and-error-codes: 429 is the hourly limit "OR your account has run out of searches".
        errorBody: { error: "Your account has run out of searches." },
      },
      "quota_exhausted",
      /run out of searches/,
    ],
    ["serpapi", "429 hourly limit", { status: 429 }, "rate_limited", /rate limited/],
    ["exa", "403", { status: 403 }, "blocked", /plan lacks|blocked by policy/],
  ];
  it.each(cases)("%s %s", async (id, _name, scenario, reason, says) => {
    const error = await failureOf(id, scenario);
    expect(error.reason).toBe(reason);
    expect(error.message).toMatch(says);
    expect(error.message).not.toMatch(/rejected the API key/);
  });

  it("keeps the generic meaning where no rule applies: Linkup's plain 403 is the key", async () => {
    const error = await failureOf("linkup", { status: 403 });
    expect(error.reason).toBe("bad_key");
  });
});
