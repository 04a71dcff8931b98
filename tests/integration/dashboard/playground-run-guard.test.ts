/**
 * The playground's run route refuses what another site's page could send with the signed-in user's
 * cookie, with MCP's own Host and Origin guard (AUTH_URL and SEARCHMUX_ALLOWED_HOSTS unset: the loopback
 * names): a forged X-Forwarded-Host, a foreign Origin or a rebound Host is a 403 before the session is
 * looked at or anything runs. A same-site request goes on, its calls traced as the playground's.
 */
import { randomUUID } from "node:crypto";
import type { Session } from "next-auth";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { Surface } from "@/lib/pipeline/capabilities";
import { ServiceError } from "@/lib/pipeline/errors";
import { inProcessApp, operatorWorkspace, routeRequest } from "@/tests/support/route-handlers";

const signedIn = vi.hoisted(() => ({ session: null as Session | null, looked: 0 }));
vi.mock("@/lib/auth/session", () => ({
  currentSession: async () => {
    signedIn.looked++;
    return signedIn.session;
  },
}));
const runs = vi.hoisted(() => ({ surfaces: [] as Surface[] }));
vi.mock("@/lib/dashboard/playground-run", async (original) => ({
  ...(await original<typeof import("@/lib/dashboard/playground-run")>()),
  // No provider is asked: the run notes its context's surface and stops there.
  runPlaygroundTool: async (ctx: { surface: Surface }) => {
    runs.surfaces.push(ctx.surface);
    throw new ServiceError("invalid_input", "stopped by the test");
  },
}));

const app = inProcessApp("playground-guard");
let POST: (request: Request) => Promise<Response>;

function run(headers: Record<string, string>) {
  return POST(
    routeRequest(`http://${headers.host}/dashboard/playground/run`, {
      method: "POST",
      headers,
      body: { tool: "web_search", input: { query: "guarded" } },
    }),
  );
}

beforeAll(async () => {
  await app.start({ AUTH_URL: "", SEARCHMUX_ALLOWED_HOSTS: "" });
  ({ POST } = await import("@/app/(dashboard)/dashboard/playground/run/route"));
  const ctx = await operatorWorkspace("playground-guard", "playground");
  signedIn.session = { user: { id: randomUUID() }, tenantId: ctx.tenantId, role: "owner", expires: "" };
});

afterAll(() => app.stop());

beforeEach(() => {
  signedIn.looked = 0;
  runs.surfaces = [];
});

describe("a playground run from another site", () => {
  it.each([
    [
      "a forged X-Forwarded-Host with its Origin",
      { host: "localhost:3000", "x-forwarded-host": "evil.example", origin: "http://evil.example" },
    ],
    ["a foreign Origin", { host: "localhost:3000", origin: "http://evil.example" }],
    ["a rebound Host with its own Origin", { host: "evil.example:3000", origin: "http://evil.example:3000" }],
  ])("is refused 403 before anything runs: %s", async (_, headers) => {
    const response = await run(headers);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: { code: "forbidden", message: expect.any(String) } });
    expect(signedIn.looked).toBe(0);
    expect(runs.surfaces).toEqual([]);
  });

  it("runs from the deployment's own page, traced as the playground's", async () => {
    const response = await run({ host: "localhost:3000", origin: "http://localhost:3000" });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('"stopped by the test"');
    expect(runs.surfaces).toEqual(["playground"]);
  });
});
