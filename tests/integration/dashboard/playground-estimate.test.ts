/**
 * The playground's estimate route (the figure beside Run): the signed-in user's call of the tool with
 * `estimate: true`, behind the same guard as its runs (another site's page gets 403 before anything is
 * looked at), answering `{estimate}` or the call's own input error, and asking no provider.
 */
import { randomUUID } from "node:crypto";
import type { Session } from "next-auth";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { fakeProviderEnv } from "@/tests/support/provider-env";
import { inProcessApp, operatorWorkspace, routeRequest } from "@/tests/support/route-handlers";

const signedIn = vi.hoisted(() => ({ session: null as Session | null }));
vi.mock("@/lib/auth/session", () => ({ currentSession: async () => signedIn.session }));

const app = inProcessApp("playground-estimate");
let fake: FakeProviders;
let POST: (request: Request) => Promise<Response>;

async function estimate(
  body: unknown,
  headers: Record<string, string> = { origin: "http://localhost:3000" },
) {
  const response = await POST(
    routeRequest("http://localhost:3000/dashboard/playground/estimate", {
      method: "POST",
      headers: { host: "localhost:3000", ...headers },
      body,
    }),
  );
  return { status: response.status, body: await response.json() };
}

beforeAll(async () => {
  fake = await startFakeProviders();
  await app.start({ ...fakeProviderEnv(fake.url), BRAVE_API_KEY: "operator-brave", AUTH_URL: "" });
  ({ POST } = await import("@/app/(dashboard)/dashboard/playground/estimate/route"));
  const ctx = await operatorWorkspace("playground-estimate", "playground");
  signedIn.session = { user: { id: randomUUID() }, tenantId: ctx.tenantId, role: "owner", expires: "" };
});

afterAll(async () => {
  await app.stop();
  await fake?.close();
});

describe("the playground's estimate", () => {
  it("answers what the call would ask and its ceiling, asking no provider", async () => {
    const searched = await estimate({
      tool: "web_search",
      input: { query: "what would it cost", providers: ["brave", "duckduckgo"] },
    });
    expect(searched).toMatchObject({ status: 200, body: { estimate: { max_cost_usd: 0.005 } } });
    expect(searched.body.estimate.providers.sort()).toEqual(["brave", "duckduckgo"]);
    const research = await estimate({ tool: "research", input: { question: "q", providers: ["brave"] } });
    expect(research).toMatchObject({ status: 200, body: { estimate: { providers: expect.any(Array) } } });
    expect(fake.requests("brave")).toHaveLength(0);
  });

  it("answers the call's own input error, and refuses other tools and bodies", async () => {
    expect(await estimate({ tool: "web_search", input: { query: "" } })).toMatchObject({
      status: 400,
      body: { error: { code: "invalid_input" } },
    });
    expect((await estimate({ tool: "budget_status", input: {} })).status).toBe(400);
    expect((await estimate({ tool: "web_search" })).status).toBe(400);
  });

  it("is refused 403 to another site's page", async () => {
    const foreign = await estimate(
      { tool: "web_search", input: { query: "q" } },
      { origin: "http://evil.example" },
    );
    expect(foreign).toMatchObject({ status: 403, body: { error: { code: "forbidden" } } });
  });
});
