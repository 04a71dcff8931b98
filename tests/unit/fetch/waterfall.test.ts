/**
 * runFetch's waterfall through the real adapters and the real provider HTTP client against the fake
 * provider server (tests/fakes/fetch-wires.ts) and a loopback site for the direct fetcher.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { FetchFailed } from "@/lib/engine/fetch/errors";
import { runFetch } from "@/lib/engine/fetch/run-fetch";
import type { Admission } from "@/lib/engine/shared/types";
import { SsrfBlocked } from "@/lib/http/ssrf";
import { DEFAULT_PAGE, FETCH_WIRES, fetchWireId } from "@/tests/fakes/fetch-wires";
import { setUpFakeProviders } from "@/tests/fakes/set-up-fake-providers";
import { directEntry, fakeFetchEntry, LOOPBACK_ONLY, TEST_KEY } from "./entries";
import { type Site, startSite } from "./site-server";

const NOT_FOUND_PAGE = `<!DOCTYPE html><html><head><title>404 — Page not found</title></head><body><h1>404 — Page not found</h1><p>${"The page you asked for is not here. ".repeat(10)}</p></body></html>`;
/** A single-page app's shell, as its 404 fallback serves it for the app's own routes. */
const APP_SHELL = `<!DOCTYPE html><html><head><title>App</title><script src="/bundle.js"></script></head><body><div id="root"></div></body></html>`;
const CHALLENGE = `<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><h1>Checking your browser before accessing the site.</h1><p>Enable JavaScript and cookies to continue</p></body></html>`;
const KEYED = [
  "firecrawl",
  "tavily",
  "exa",
  "scrapingbee",
  "scraperapi",
  "zyte",
  "brightdata",
  "diffbot",
  "spider",
  "scrapfly",
];
const QUERY_KEY_PROVIDERS: Array<[string, string]> = [
  ["scrapingbee", "api_key"],
  ["scraperapi", "api_key"],
  ["diffbot", "token"],
  ["scrapfly", "key"],
];

/** The keyed routes' keys: Supadata's API key, Reddit's app ("<client id>:<client secret>"). */
const ROUTE_KEYS: Record<string, string> = {
  supadata: TEST_KEY,
  reddit: "reddit-client-id:reddit-client-secret",
};

const fake = setUpFakeProviders(FETCH_WIRES);
let site: Site;

beforeAll(async () => {
  site = await startSite({
    "/challenge": { status: 403, body: CHALLENGE },
    "/broken": { status: 500, body: "<html><body>Internal error</body></html>" },
    "/article": {
      body: `<html><head><title>Direct article</title></head><body><article><p>${"Direct content. ".repeat(40)}</p></article></body></html>`,
    },
    "/missing": { status: 404, body: NOT_FOUND_PAGE },
    "/gone": { status: 410, body: "<html><body><h1>Gone</h1></body></html>" },
    "/forbidden": { status: 403, body: "<html><body><h1>Forbidden</h1></body></html>" },
    "/app/route": { status: 404, body: APP_SHELL },
    "/empty": { body: "" },
    "/blank": { body: "  \n\t\n  " },
    "/garbage": { body: Buffer.from([0x00, 0xff, 0x3c, 0x3c, 0x01, 0xfe, 0x3e]) },
    "/text": { body: "just a line of text" },
  });
});
afterAll(async () => site.close());

const calls = (id: string) => fake.requests(fetchWireId(id)).length;
const all = () => [
  directEntry(),
  ...["jina", ...KEYED].map((id) => fakeFetchEntry(fake, id, id === "jina" ? null : TEST_KEY)),
];

describe("waterfall", () => {
  it("fails over from a bot challenge to the next provider, cheapest first", async () => {
    const result = await runFetch({
      input: { url: `${site.url}/challenge` },
      providers: all(),
      ssrf: LOOPBACK_ONLY,
    });
    expect(result.provider).toBe("jina");
    expect(result.providers_attempted).toEqual(["direct", "jina"]);
    expect(result.providers_failed).toEqual([
      expect.objectContaining({ provider: "direct", reason: "bot_challenge", status: 403 }),
    ]);
    expect(result.content).toContain("Content fetched through a provider");
    expect(calls("firecrawl")).toBe(0);
  });

  it("orders keyed providers: keyless first, then free tiers, then paid, each by cost", async () => {
    for (const id of ["jina", ...KEYED])
      if (id !== "brightdata") fake.setScenario(fetchWireId(id), { status: 500 });
    const result = await runFetch({
      input: { url: `${site.url}/broken` },
      providers: all(),
      ssrf: LOOPBACK_ONLY,
    });
    expect(result.provider).toBe("brightdata");
    expect(result.providers_attempted).toEqual([
      "direct",
      "jina",
      "scrapfly",
      "scrapingbee",
      "scraperapi",
      "exa",
      "diffbot",
      "tavily",
      "firecrawl",
      "spider",
      "zyte",
      "brightdata",
    ]);
    expect(result.providers_failed).toHaveLength(11);
  });

  it("reports every reason when all steps fail", async () => {
    fake.setScenario(fetchWireId("jina"), { status: 500 });
    fake.setScenario(fetchWireId("firecrawl"), { status: 429, retryAfter: "9" });
    fake.setScenario(fetchWireId("tavily"), { fault: "garbage" });
    fake.setScenario(fetchWireId("exa"), { fault: "hang" });
    fake.setScenario(fetchWireId("scrapingbee"), { status: 401 });
    fake.setScenario(fetchWireId("spider"), { fault: "html" });
    const providers = [
      directEntry(),
      ...["jina", "firecrawl", "tavily", "scrapingbee", "spider"].map((id) =>
        fakeFetchEntry(fake, id, id === "jina" ? null : TEST_KEY),
      ),
      { ...fakeFetchEntry(fake, "exa"), timeoutMs: 300 },
    ];
    const error = (await runFetch({
      input: { url: `${site.url}/broken` },
      providers,
      ssrf: LOOPBACK_ONLY,
    }).catch((e: unknown) => e)) as FetchFailed;
    expect(error).toBeInstanceOf(FetchFailed);
    const reasons = Object.fromEntries(error.providersFailed.map((f) => [f.provider, f.reason]));
    expect(reasons).toEqual({
      direct: "http_error",
      jina: "http_error",
      scrapingbee: "bad_key",
      tavily: "invalid_response",
      firecrawl: "rate_limited",
      exa: "timeout",
      spider: "invalid_response",
    });
    expect(error.message).toMatch(/every fetch step failed \(direct: http_error;/);
    expect(error.spans).toHaveLength(7);
  });

  it("asks for a second opinion when skip_providers is set", async () => {
    fake.setScenario(fetchWireId("firecrawl"), {
      payload: { markdown: `# Second\n\n${"Firecrawl's reading of the page. ".repeat(12)}` },
    });
    const result = await runFetch({
      input: { url: `${site.url}/article`, skip_providers: ["direct"] },
      providers: all(),
      ssrf: LOOPBACK_ONLY,
    });
    expect(result.provider).toBe("jina");
    expect(result.alternative_results).toHaveLength(1);
    expect(result.alternative_results?.[0]).toMatchObject({ provider: "scrapfly" });
    expect(result.providers_attempted).not.toContain("direct");
  });

  it("restricts steps to `providers`, and rejects unknown names", async () => {
    const result = await runFetch({
      input: { url: `${site.url}/article`, providers: ["firecrawl"] },
      providers: all(),
      ssrf: LOOPBACK_ONLY,
    });
    expect(result.providers_attempted).toEqual(["firecrawl"]);
    await expect(
      runFetch({
        input: { url: `${site.url}/article`, providers: ["firecrawll"] },
        providers: all(),
        ssrf: LOOPBACK_ONLY,
      }),
    ).rejects.toBeInstanceOf(ZodError);
  });

  it("admits paid steps only, and skips a refused one", async () => {
    const asked: string[] = [];
    const admit = async (id: string): Promise<Admission> => {
      asked.push(id);
      return id === "scrapfly" ? { ok: false, reason: "budget_exhausted" } : { ok: true };
    };
    fake.setScenario(fetchWireId("jina"), { status: 503 });
    const result = await runFetch({
      input: { url: `${site.url}/challenge` },
      providers: all(),
      ssrf: LOOPBACK_ONLY,
      admit,
    });
    expect(asked).toEqual(["scrapfly", "scrapingbee"]);
    expect(result.provider).toBe("scrapingbee");
    expect(result.providers_failed.map((f) => [f.provider, f.reason])).toEqual([
      ["direct", "bot_challenge"],
      ["jina", "http_error"],
      ["scrapfly", "budget_exhausted"],
    ]);
    expect(calls("scrapfly")).toBe(0);
  });
});

describe("the site's own answer", () => {
  const paidCalls = () => ["jina", ...KEYED].reduce((sum, id) => sum + calls(id), 0);

  it.each([
    ["/missing", 404],
    ["/gone", 410],
  ])(
    "%s (HTTP %i) ends the fetch at the direct step: no provider is asked to render it",
    async (path, status) => {
      fake.clearRequests();
      const error = (await runFetch({
        input: { url: `${site.url}${path}` },
        providers: all(),
        ssrf: LOOPBACK_ONLY,
      }).catch((e: unknown) => e)) as FetchFailed;
      expect(error).toBeInstanceOf(FetchFailed);
      expect(error.providersAttempted).toEqual(["direct"]);
      expect(error.originVerdict).toMatchObject({ provider: "direct", reason: "http_error", status });
      expect(paidCalls()).toBe(0);
    },
  );

  it("goes on past statuses that are no verdict on the page: 403, 500, and a 404 app shell", async () => {
    for (const path of ["/forbidden", "/broken", "/app/route"]) {
      fake.clearRequests();
      const result = await runFetch({
        input: { url: `${site.url}${path}` },
        providers: all(),
        ssrf: LOOPBACK_ONLY,
      });
      expect(result.provider).toBe("jina");
      expect(calls("jina")).toBe(1);
    }
    const shell = await runFetch({
      input: { url: `${site.url}/app/route` },
      providers: all(),
      ssrf: LOOPBACK_ONLY,
    });
    expect(shell.providers_failed).toEqual([
      expect.objectContaining({ provider: "direct", reason: "js_shell", status: 404 }),
    ]);
  });
});

describe("empty and garbage pages", () => {
  it.each(["/empty", "/blank", "/garbage", "/text"])(
    "%s is a short page (kept as the last resort), never an adapter crash",
    async (path) => {
      const result = await runFetch({
        input: { url: `${site.url}${path}` },
        providers: [directEntry()],
        ssrf: LOOPBACK_ONLY,
      });
      expect(result.provider).toBe("direct");
      expect(result.metadata.warning).toMatch(/^only \d+ characters of text/);
      expect(result.content.length).toBeLessThan(30);
    },
  );

  it("an empty page from a provider that answers HTML is a short page too", async () => {
    for (const html of ["", "   ", "\u0000garbage<<"]) {
      fake.setScenario(fetchWireId("scrapingbee"), { payload: { html } });
      const error = (await runFetch({
        input: { url: `${site.url}/broken`, providers: ["scrapingbee"] },
        providers: all(),
        ssrf: LOOPBACK_ONLY,
      }).catch((e: unknown) => e)) as unknown;
      const failures = error instanceof FetchFailed ? error.providersFailed : [];
      const result = error instanceof FetchFailed ? undefined : (error as { provider: string });
      // Either the short page itself (the last resort) or a named reason: never "unexpected adapter error".
      expect(result?.provider ?? failures[0]?.reason).toMatch(/^(scrapingbee|too_short)$/);
      expect(JSON.stringify(failures)).not.toMatch(/unexpected adapter error/);
    }
  });
});

describe("SSRF at the engine level", () => {
  it("refuses a hostile URL before any provider is called", async () => {
    await expect(
      runFetch({ input: { url: "http://169.254.169.254/latest/" }, providers: all(), ssrf: LOOPBACK_ONLY }),
    ).rejects.toBeInstanceOf(SsrfBlocked);
    expect(calls("jina")).toBe(0);
  });

  it("stops the waterfall when the direct fetcher finds a private address behind DNS", async () => {
    const resolver = async () => [{ address: "10.0.0.7", family: 4 as const }];
    await expect(
      runFetch({
        input: { url: "http://sneaky.example/" },
        providers: all(),
        ssrf: { ...LOOPBACK_ONLY, resolver },
      }),
    ).rejects.toThrow(/^sneaky\.example resolves to a private address$/);
    expect(calls("jina")).toBe(0);
  });
});

describe("adapters speak their wire formats", () => {
  it.each(["jina", ...KEYED])("%s returns the page", async (id) => {
    fake.setScenario(fetchWireId(id), { expectedApiKey: id === "jina" ? undefined : TEST_KEY });
    const result = await runFetch({
      input: { url: DEFAULT_PAGE.url, providers: [id] },
      providers: all(),
      ssrf: LOOPBACK_ONLY,
    });
    expect(result.provider).toBe(id);
    expect(result.content).toContain("Content fetched through a provider, long enough");
    expect(result.title).toContain("Provider page");
    expect(calls(id)).toBe(1);
  });

  it.each(QUERY_KEY_PROVIDERS)(
    "%s never lets its query-string key reach an error message",
    async (id, param) => {
      for (const scenario of [{ status: 500 }, { status: 401 }, { fault: "garbage" as const }]) {
        fake.clearRequests();
        fake.setScenario(fetchWireId(id), scenario);
        const error = (await runFetch({
          input: { url: DEFAULT_PAGE.url, providers: [id] },
          providers: all(),
          ssrf: LOOPBACK_ONLY,
        }).catch((e: unknown) => e)) as FetchFailed;
        expect(fake.requests(fetchWireId(id))[0]?.query[param]).toBe(TEST_KEY);
        expect(
          JSON.stringify({ message: error.message, failed: error.providersFailed, spans: error.spans }),
        ).not.toContain(TEST_KEY);
      }
    },
  );
});

describe("domain routes run before the waterfall", () => {
  const routes: Array<[string, string, string[]]> = [
    ["github", "https://github.com/octo/hello", ["Content fetched through a provider"]],
    [
      "reddit",
      "https://www.reddit.com/r/rust/comments/abc123/a_thread/",
      ["r/rust · u/op_user · 321 points", "**u/first_commenter**", "> **u/second_commenter**"],
    ],
    [
      "arxiv",
      "https://arxiv.org/abs/2401.00001",
      ["**Authors:** Grace Hopper, Alan Turing", "## Abstract", "**PDF:** http://arxiv.org/pdf/2401.00001v1"],
    ],
    ["supadata", "https://www.youtube.com/watch?v=dQw4w9WgXcQ", ["# YouTube video dQw4w9WgXcQ: transcript"]],
  ];

  it.each(routes)("%s handles %s", async (id, url, expected) => {
    const entries = [...all(), fakeFetchEntry(fake, id, ROUTE_KEYS[id] ?? null)];
    const result = await runFetch({ input: { url }, providers: entries, ssrf: LOOPBACK_ONLY });
    expect(result.provider).toBe(id);
    expect(result.providers_attempted).toEqual([id]);
    for (const text of expected) expect(result.content).toContain(text);
  });

  it("falls through to the waterfall when the route fails", async () => {
    fake.setScenario(fetchWireId("github"), { status: 403 });
    const entries = [fakeFetchEntry(fake, "github", null), fakeFetchEntry(fake, "jina", null)];
    const result = await runFetch({
      input: { url: "https://github.com/octo/hello" },
      providers: entries,
      ssrf: LOOPBACK_ONLY,
    });
    expect(result.providers_attempted).toEqual(["github", "jina"]);
    expect(result.provider).toBe("jina");
  });
});
