import { readFileSync } from "node:fs";
import { Agent, fetch } from "undici";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { createLocalCa, type LocalCa } from "@/tests/reliability/support/local-ca";

let ca: LocalCa;
let fake: FakeProviders;

beforeAll(async () => {
  ca = createLocalCa();
  fake = await startFakeProviders({}, { tls: { key: ca.key, cert: ca.cert } });
});
afterAll(async () => {
  await fake?.close();
  ca?.remove();
});

it("serves the providers' wires over HTTPS with a certificate the local authority signed", async () => {
  expect(fake.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
  const trusting = new Agent({ connect: { ca: readFileSync(ca.caFile, "utf8") } });
  const response = await fetch(`${fake.baseUrlFor("brave")}/res/v1/web/search?q=tls`, {
    headers: { "x-subscription-token": "k" },
    dispatcher: trusting,
  });
  expect(response.status).toBe(200);
  expect(((await response.json()) as { web: { results: unknown[] } }).web.results.length).toBeGreaterThan(0);
  await trusting.close();

  // Without the authority, the certificate is refused: the server really speaks TLS with its own chain.
  await expect(fetch(`${fake.baseUrlFor("brave")}/res/v1/web/search?q=tls`)).rejects.toThrow();
});
