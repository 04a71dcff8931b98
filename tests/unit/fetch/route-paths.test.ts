/**
 * Domain routes turn a user's URL into a provider path segment by segment (security issue #14): the
 * GitHub route, holding the operator's GITHUB_TOKEN, must only ever reach /repos/{owner}/{repo}/…, and
 * an encoded `..` or a malformed escape on any route's site is invalid input (400) before any provider
 * is called. Real adapters, engine and operator verb against the fake provider server.
 */
import { describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { toErrorResponse } from "@/lib/api/errors";
import { planSteps, runFetch } from "@/lib/engine/fetch/run-fetch";
import type { FetchProviderEntry } from "@/lib/engine/fetch/types";
import { ServiceError } from "@/lib/pipeline/errors";
import { operatorContext } from "@/lib/pipeline/operator-context";
import { fetchProviders } from "@/lib/providers/fetch";
import { fetchPage } from "@/lib/services/fetch/fetch-page";
import { DEFAULT_PAGE } from "@/tests/fakes/fetch-wires";
import { bearer, type FakeWire } from "@/tests/fakes/provider-server";
import { setUpFakeProviders } from "@/tests/fakes/set-up-fake-providers";
import { directEntry, fakeFetchEntry, LOOPBACK_ONLY } from "./entries";
import { ROUTE_TRAVERSALS } from "./route-traversals";

const OPERATOR_TOKEN = "ghp_operator0123456789";

/** Legitimate file and repository URLs and the exact API path each must reach. */
const GITHUB_PATHS: Array<{ name: string; url: string; path: string; ref?: string }> = [
  {
    name: "a nested path with spaces",
    url: "https://github.com/x/y/blob/main/docs/My%20Notes/read%20me.md",
    path: "/repos/x/y/contents/docs/My%20Notes/read%20me.md",
    ref: "main",
  },
  {
    name: "a unicode path on a tag",
    url: "https://github.com/x/y/blob/v1.2/src/été/café.md",
    path: "/repos/x/y/contents/src/%C3%A9t%C3%A9/caf%C3%A9.md",
    ref: "v1.2",
  },
  {
    name: "an encoded slash, kept encoded",
    url: "https://github.com/x/y/blob/main/dir%2Ffile.md",
    path: "/repos/x/y/contents/dir%2Ffile.md",
    ref: "main",
  },
  { name: "the repository README", url: "https://www.github.com/x/y/", path: "/repos/x/y/readme" },
];

/** One fake GitHub per legitimate case, answering only the path that case must reach. */
const githubWire = (path: string): FakeWire => ({
  method: "GET",
  path,
  credential: bearer,
  render: () => ({ contentType: "application/vnd.github.raw+json", body: DEFAULT_PAGE.markdown }),
});
const wireId = (index: number) => `github-${index}`;
const fake = setUpFakeProviders({
  ...Object.fromEntries(GITHUB_PATHS.map(({ path }, index) => [wireId(index), githubWire(path)])),
  "github-issue": githubWire("/repos/x/y/issues/7"),
});

/** Every domain route pointed at its own fake prefix, with operator keys: what `smx fetch` would use. */
const operatorEnv = () => ({
  GITHUB_TOKEN: OPERATOR_TOKEN,
  GITHUB_API_BASE_URL: fake.baseUrlFor("route-github"),
  REDDIT_CLIENT_CREDENTIALS: "reddit-client-id:reddit-client-secret",
  REDDIT_BASE_URL: fake.baseUrlFor("route-reddit"),
  ARXIV_BASE_URL: fake.baseUrlFor("route-arxiv"),
  SUPADATA_API_KEY: "supadata-operator-key",
  SUPADATA_BASE_URL: fake.baseUrlFor("route-supadata"),
});
const routeCalls = () =>
  ["github", "reddit", "arxiv", "supadata"].reduce((sum, id) => sum + fake.requests(`route-${id}`).length, 0);

const githubEntry = (index: number): FetchProviderEntry => ({
  ...fakeFetchEntry(fake, "github", OPERATOR_TOKEN),
  baseUrl: fake.baseUrlFor(wireId(index)),
});

describe("GitHub route paths", () => {
  it.each(GITHUB_PATHS.map((c, index) => ({ ...c, index })))(
    "$name reaches exactly $path with the operator's token",
    async ({ url, path, ref, index }) => {
      const result = await runFetch({ input: { url }, providers: [githubEntry(index)], ssrf: LOOPBACK_ONLY });
      expect(result.provider).toBe("github");
      const requests = fake.requests(wireId(index));
      expect(requests.map((r) => ({ path: r.path, ref: r.query.ref }))).toEqual([{ path, ref }]);
      expect(requests[0]?.headers.authorization).toBe(`Bearer ${OPERATOR_TOKEN}`);
    },
  );

  it("reads an issue and its comments under the repository only", async () => {
    // Both requests go out together; the delay holds the answers until both have arrived.
    fake.setScenario("github-issue", { latencyMs: 100 });
    await runFetch({
      input: { url: "https://github.com/x/y/issues/7" },
      providers: [{ ...githubEntry(0), baseUrl: fake.baseUrlFor("github-issue") }],
      ssrf: LOOPBACK_ONLY,
    }).catch(() => undefined);
    const paths = fake.requests("github-issue").map((r) => r.path);
    expect(paths.sort()).toEqual(["/repos/x/y/issues/7", "/repos/x/y/issues/7/comments"]);
  });
});

describe("traversal and malformed escapes on every route", () => {
  it.each(ROUTE_TRAVERSALS)(
    "$name: invalid input naming the problem, no provider called",
    async ({ route, url, problem }) => {
      const error = await fetchPage({
        ctx: operatorContext(operatorEnv(), "cli"),
        input: { url, providers: [route] },
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServiceError);
      expect(error).toMatchObject({ code: "invalid_input", message: expect.stringMatching(problem) });
      const response = toErrorResponse(error, "test");
      expect(response.status).toBe(400);
      expect(routeCalls()).toBe(0);
    },
  );

  it.each(ROUTE_TRAVERSALS)("$name: refused by the engine whichever steps are allowed", async ({ url }) => {
    const error = await runFetch({
      input: { url, providers: ["direct"] },
      providers: [directEntry(), githubEntry(0)],
      registry: fetchProviders,
      ssrf: LOOPBACK_ONLY,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ZodError);
    expect(fake.requests(wireId(0))).toEqual([]);
  });

  it("plans no route for a refused URL instead of throwing (grounding orders steps for result URLs)", () => {
    for (const { url } of ROUTE_TRAVERSALS) {
      const steps = planSteps([directEntry(), githubEntry(0)], new URL(url), {});
      expect(steps.map((s) => s.provider.id)).toEqual(["direct"]);
    }
  });
});
