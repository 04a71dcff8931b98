/**
 * The fake provider server the e2e server calls (tests/fakes/serve-fake-providers.ts, its own process on
 * a fixed port): every provider of every tool points at it (tests/support/provider-env.ts), so the
 * specs pass alike with and without internet. A few keyed search providers answer, with a latency,
 * reachable only with a workspace's own key (no operator key is set); every other wire — the keyless
 * providers a zero-configuration workspace calls — answers 503, which is what mcp.spec's failure paths
 * assert, and each spec can read what a wire received. The fake OpenAI-compatible model answers too: no
 * operator model points at it, but a workspace may add it as its own model at ALLOWLISTED_FAKES_ORIGIN, the
 * same server on the loopback address the e2e server allowlists (127.0.0.1 stays refused to a workspace's
 * base URL, as to every other user-supplied URL).
 */
import type { FakeScenario, RecordedRequest } from "@/tests/fakes/provider-server";
import { CLIENT_SITE_ADDRESS } from "./client-site";

export const FAKES_PORT = Number(process.env.E2E_FAKES_PORT ?? 3198);
export const FAKES_ORIGIN = `http://127.0.0.1:${FAKES_PORT}`;
/** The fake server on the allowlisted loopback address: where a workspace's own model can point. */
export const ALLOWLISTED_FAKES_ORIGIN = `http://${CLIENT_SITE_ADDRESS}:${FAKES_PORT}`;

/** The one Tavily key the fake accepts; any other gets 401, so a key test can pass or fail. */
export const E2E_TAVILY_KEY = "tvly-e2e-good-key-0001";

/** Faked providers and how long each takes to answer, so the playground shows them finishing in turn. */
export const FAKED_PROVIDERS: Readonly<Record<string, number>> = {
  tavily: 300,
  brave: 700,
  exa: 500,
  serper: 900,
  // The OpenAI-compatible model (tests/fakes/snippet-model-wire.ts), for a workspace's own model.
  "snippet-model": 200,
};

/** The status of every other wire. */
export const FAILING_STATUS = 503;

/** Where the fake server lists the requests a wire received (GET, JSON). */
export const REQUEST_LOG_PATH = "/_requests/";

/** The requests the fake server's `wire` (a provider id or wire prefix) has received so far. */
export async function fakeRequests(wire: string): Promise<RecordedRequest[]> {
  const response = await fetch(`${FAKES_ORIGIN}${REQUEST_LOG_PATH}${encodeURIComponent(wire)}`);
  if (!response.ok) throw new Error(`the fake provider server answered ${response.status}`);
  return (await response.json()) as RecordedRequest[];
}

/** Where the fake server takes a wire's scenario (PUT a FakeScenario as JSON; DELETE restores the default). */
export const SCENARIO_PATH = "/_scenario/";

/** Makes the fake server's `wire` answer as `scenario`, or (null) as every spec expects by default. */
export async function setFakeScenario(wire: string, scenario: FakeScenario | null): Promise<void> {
  const response = await fetch(`${FAKES_ORIGIN}${SCENARIO_PATH}${encodeURIComponent(wire)}`, {
    method: scenario === null ? "DELETE" : "PUT",
    body: scenario === null ? undefined : JSON.stringify(scenario),
  });
  if (!response.ok) throw new Error(`the fake provider server answered ${response.status}`);
}
