/**
 * The workspace model over REST: `PUT /api/v1/keys` with its base URL, model and price (400 naming the field
 * for each bad one, the address refused by rule, an admin token only), `GET /api/v1/keys` listing its host,
 * model and price but never the key, and an extract call over REST that uses it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TenantContext } from "@/lib/pipeline/context";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { type ResearchSite, startResearchSite } from "@/tests/fakes/research-site";
import { SNIPPET_MODEL, SNIPPET_MODEL_WIRES } from "@/tests/fakes/snippet-model-wire";
import { serveRequest } from "@/tests/support/app-routes";
import { inProcessApp, newToken, operatorWorkspace, routeRequest } from "@/tests/support/route-handlers";

const app = inProcessApp("workspace-model");
const KEY = "sk-rest-workspace-model-9d1c";

describe("the workspace model over REST", () => {
  let fake: FakeProviders;
  let site: ResearchSite;
  let ctx: TenantContext;
  let admin: string;
  let agent: string;

  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const response = await serveRequest(routeRequest(path, { method, token, body }));
    return { status: response.status, body: await response.json() };
  };
  const settings = () => ({
    provider: "workspace_llm",
    key: KEY,
    base_url: fake.baseUrlFor(SNIPPET_MODEL),
    model: "workspace-model",
    price_per_mtok: { input: 0.4, output: 1.6 },
  });

  beforeAll(async () => {
    fake = await startFakeProviders(SNIPPET_MODEL_WIRES);
    site = await startResearchSite();
    await app.start({ SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1", SEARCHMUX_RATE_LIMIT_RPM: "1000" });
    ctx = await operatorWorkspace("workspace-model");
    admin = await newToken(ctx, { name: "admin", scopes: ["admin"] });
    agent = await newToken(ctx, { name: "agent", scopes: ["fetch"] });
  });
  afterAll(async () => {
    await app.stop();
    await site?.close();
    await fake?.close();
  });

  it.each([
    [{ base_url: "ftp://models.example.com/v1" }, "base_url", "base_url: must be an http or https URL"],
    [
      { base_url: "http://169.254.169.254/v1" },
      "base_url",
      "base_url: refused: 169.254.169.254 is a cloud metadata address",
    ],
    [{ model: "" }, "model", "model: must not be empty"],
    [{ price_per_mtok: { input: 1 } }, "price_per_mtok.output", "price_per_mtok.output: is required"],
    [
      { price_per_mtok: { input: 1, output: 2, cached: 0.5 } },
      "price_per_mtok",
      'price_per_mtok: unknown field "cached" (known: input, output)',
    ],
    [
      { temperature: 0 },
      "",
      'unknown field "temperature" (known: provider, key, base_url, model, price_per_mtok)',
    ],
  ])("refuses %j with 400 naming the field", async (change, path, message) => {
    const refused = await call("PUT", "/api/v1/keys", admin, { ...settings(), ...change });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: "invalid_input", message });
    expect(refused.body.error.details?.[0]?.path ?? "").toBe(path);
    expect(JSON.stringify(refused.body)).not.toContain(KEY);
  });

  it("stores it for an admin token only, lists its host, model and price but never the key, and extract uses it", async () => {
    const forbidden = await call("PUT", "/api/v1/keys", agent, settings());
    expect(forbidden.status).toBe(403);

    const stored = await call("PUT", "/api/v1/keys", admin, settings());
    expect(stored).toEqual({
      status: 200,
      body: { provider: "workspace_llm", last4: "9d1c", status: "unknown" },
    });
    const listed = await call("GET", "/api/v1/keys", admin);
    expect(listed.body.keys).toEqual([
      expect.objectContaining({
        provider: "workspace_llm",
        last4: "9d1c",
        endpoint: {
          host: new URL(fake.url).host,
          model: "workspace-model",
          price_per_mtok: { input: 0.4, output: 1.6 },
        },
      }),
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(KEY);

    fake.setScenario(SNIPPET_MODEL, {
      payload: { rules: [{ contains: "Solar report 1 <", reply: '{"design": 1}' }] },
    });
    const extracted = await call("POST", "/api/v1/extract", agent, {
      urls: [`${site.origin}/solar/1`],
      schema: { type: "object", properties: { design: { type: "integer" } }, required: ["design"] },
    });
    expect(extracted.status).toBe(200);
    expect(extracted.body.results).toEqual([
      { url: `${site.origin}/solar/1`, provider: "workspace_llm", data: { design: 1 }, cache_hit: false },
    ]);
    expect(fake.requests(SNIPPET_MODEL)[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
  });
});
