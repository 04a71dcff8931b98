/** `providers verify` spends the operator's keys: a workspace's member or token may not run it. */
import { describe, expect, it } from "vitest";
import { operatorContext } from "@/lib/pipeline/operator-context";
import { verifyProviders } from "@/lib/services/providers/verify-providers";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { fakeProviderEnv } from "@/tests/support/provider-env";

describe("who may check the operator's providers", () => {
  it("refuses any caller but the operator, before calling a provider", async () => {
    const fake: FakeProviders = await startFakeProviders();
    try {
      const operator = operatorContext(fakeProviderEnv(fake.url), "cli");
      for (const actor of [
        { kind: "user", userId: "u1" },
        { kind: "token", tokenId: "t1", tokenName: "ci", userId: null },
      ] as const) {
        await expect(verifyProviders({ ctx: { ...operator, actor }, input: {} })).rejects.toMatchObject({
          code: "forbidden",
        });
      }
      expect(fake.requests("wikipedia")).toEqual([]);
    } finally {
      await fake.close();
    }
  });
});
