/**
 * The fake providers the e2e server calls: which keyed search providers are faked, on which port, and
 * with what latency. Keyless providers (DuckDuckGo, Wikipedia, arXiv…) are left unreachable, and no
 * operator key is set, so a workspace reaches the fakes only through keys it stores itself (mcp.spec's
 * "no provider is reachable" tenants are unaffected).
 */
export const FAKES_PORT = Number(process.env.E2E_FAKES_PORT ?? 3198);

/** The one Tavily key the fake accepts; any other gets 401, so a key test can pass or fail. */
export const E2E_TAVILY_KEY = "tvly-e2e-good-key-0001";

/** Faked providers and how long each takes to answer, so the playground shows them finishing in turn. */
export const FAKED_PROVIDERS: Readonly<Record<string, number>> = {
  tavily: 300,
  brave: 700,
  exa: 500,
  serper: 900,
};

/** `<ID>_BASE_URL` for each faked provider, for the Next server's environment. */
export function fakeProviderEnv(): Record<string, string> {
  return Object.fromEntries(
    Object.keys(FAKED_PROVIDERS).map((id) => [
      `${id.toUpperCase()}_BASE_URL`,
      `http://127.0.0.1:${FAKES_PORT}/${id}`,
    ]),
  );
}
