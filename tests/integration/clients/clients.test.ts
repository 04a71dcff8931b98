/**
 * Both clients against a running server: the app's route handlers behind a real HTTP server on loopback, an
 * embedded database, the fake provider server. The TypeScript client is built, packed with `npm pack` and
 * installed offline into an empty folder (it has no dependencies), then imported and type-checked there as
 * a user's code would be; the Python client runs in python3 from clients/python. Each client's threat
 * model line is tested: the token goes to the server only (no redirect carries it, no repr shows it), path
 * parameters cannot climb to another route, and any failure is a SearchmuxError with status, code,
 * message and Retry-After, also when a proxy answers instead of the API.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTypescriptClient } from "@/scripts/clients/typescript-client";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { SNIPPET_MODEL, SNIPPET_MODEL_WIRES } from "@/tests/fakes/snippet-model-wire";
import { startAppServer } from "@/tests/support/app-server";
import { type LoopbackServer, listenOnLoopback } from "@/tests/support/loopback-server";
import { fakeProviderEnv } from "@/tests/support/provider-env";
import { inProcessApp, newToken, operatorWorkspace } from "@/tests/support/route-handlers";

const run = promisify(execFile);
const app = inProcessApp("clients");
const work = mkdtempSync(path.join(tmpdir(), "smx-clients-"));
const PROVIDERS = ["duckduckgo", "wikipedia"];

let fake: FakeProviders;
let server: LoopbackServer;
/** A server that answers every request with a redirect to `trap`, which records whether it was asked. */
let redirector: LoopbackServer;
let trap: LoopbackServer;
let trapped = 0;
/** A proxy's own failure page, not the API's error body. */
let proxyPage: LoopbackServer;
let token: string;
let consumer: string;

interface ClientError {
  status: number;
  code: string;
  message: string;
  retryAfter?: number;
}
type Call = (input?: Record<string, unknown>) => Promise<Record<string, unknown>>;
/** The installed package's methods these tests call (its own types are checked by the type-check test). */
type Client = { webSearch: Call; getResearch: Call; budgetStatus: Call };
let Searchmux: new (options: { token?: string; baseUrl?: string }) => Client;

beforeAll(async () => {
  fake = await startFakeProviders(SNIPPET_MODEL_WIRES);
  await app.start({
    ...fakeProviderEnv(fake.url),
    SEARCHMUX_RATE_LIMIT_RPM: "1000",
    SEARCHMUX_LLM_BASE_URL: fake.baseUrlFor(SNIPPET_MODEL),
    SEARCHMUX_LLM_API_KEY: "operator-llm",
    SEARCHMUX_LLM_MODEL: "fake-model",
  });
  token = await newToken(await operatorWorkspace("clients"), { name: "client" });
  server = await startAppServer();
  trap = await listenOnLoopback(
    createServer((_request, reply) => {
      trapped += 1;
      reply.writeHead(200, { "content-type": "application/json" }).end("{}");
    }),
  );
  redirector = await listenOnLoopback(
    createServer((_request, reply) => reply.writeHead(307, { location: `${trap.origin}/steal` }).end()),
  );
  proxyPage = await listenOnLoopback(
    createServer((_request, reply) =>
      reply
        .writeHead(503, { "content-type": "text/html", "retry-after": "7" })
        .end("<html><body>Service Unavailable</body></html>"),
    ),
  );

  // The package as a user installs it: built apart from the checkout's dist/, packed, installed offline.
  const stage = path.join(work, "package");
  consumer = path.join(work, "consumer");
  mkdirSync(stage);
  mkdirSync(consumer);
  await buildTypescriptClient(stage);
  const npm = (args: string[], cwd: string) =>
    run("npm", [...args, "--offline", "--no-audit", "--no-fund"], { cwd, timeout: 120_000 });
  const { stdout } = await npm(["pack", "--ignore-scripts", "--pack-destination", work], stage);
  await npm(["init", "--yes"], consumer);
  await npm(["install", path.join(work, stdout.trim().split("\n").at(-1) ?? "")], consumer);
  const entry = path.join(consumer, "node_modules/@searchmux/client/dist/index.js");
  ({ Searchmux } = (await import(pathToFileURL(entry).href)) as { Searchmux: typeof Searchmux });
}, 240_000);

afterAll(async () => {
  await Promise.all([server, redirector, trap, proxyPage].map((s) => s?.close()));
  await app.stop();
  await fake?.close();
  rmSync(work, { recursive: true, force: true });
});

async function failure(call: Promise<unknown>): Promise<ClientError & { name: string }> {
  const error = await call.then(
    () => {
      throw new Error("the call succeeded");
    },
    (e: unknown) => e,
  );
  return error as ClientError & { name: string };
}

describe("TypeScript client (@searchmux/client, packed and installed)", () => {
  it("searches and answers the REST response", async () => {
    fake.setScenario("duckduckgo", {
      results: [{ title: "TS client", url: "https://ts.example/a", snippet: "typed" }],
    });
    const smx = new Searchmux({ token, baseUrl: server.origin });
    const result = await smx.webSearch({ query: "typescript client", providers: PROVIDERS, max_results: 5 });
    expect(result.query).toBe("typescript client");
    expect((result.results as Array<{ url: string }>).map((r) => r.url)).toContain("https://ts.example/a");
  });

  it("asks for an estimate without calling a provider", async () => {
    fake.clearRequests();
    const smx = new Searchmux({ token, baseUrl: server.origin });
    const answer = await smx.webSearch({ query: "estimate me", providers: PROVIDERS, estimate: true });
    expect(Object.keys(answer)).toEqual(["estimate"]);
    expect(fake.requests("duckduckgo")).toEqual([]);
  });

  it("throws SearchmuxError with status and code: 401 for a bad token, 400 for invalid input", async () => {
    const unauthorized = await failure(
      new Searchmux({ token: "smx_not-a-token", baseUrl: server.origin }).webSearch({ query: "x" }),
    );
    expect(unauthorized).toMatchObject({ name: "SearchmuxError", status: 401, code: "unauthorized" });
    const invalid = await failure(
      new Searchmux({ token, baseUrl: server.origin }).webSearch({ query: "x", max_results: "ten" }),
    );
    expect(invalid).toMatchObject({ status: 400, code: "invalid_input" });
    expect(invalid.message).toMatch(/max_results/);
  });

  it("fills path parameters escaped: an id cannot reach another route", async () => {
    const smx = new Searchmux({ token, baseUrl: server.origin });
    const error = await failure(smx.getResearch({ id: "../../keys" }));
    expect([400, 404]).toContain(error.status);
  });

  it("never follows a redirect, so the token is not sent on; a proxy's page is an http_error", async () => {
    const redirected = await failure(new Searchmux({ token, baseUrl: redirector.origin }).budgetStatus());
    expect(redirected).toBeInstanceOf(TypeError);
    expect(trapped).toBe(0);
    const proxied = await failure(new Searchmux({ token, baseUrl: proxyPage.origin }).budgetStatus());
    expect(proxied).toMatchObject({ status: 503, code: "http_error", retryAfter: 7 });
    expect(proxied.message).toContain("Service Unavailable");
  });

  it("type-checks a user's code against the installed declarations", async () => {
    writeFileSync(
      path.join(consumer, "use.ts"),
      [
        'import { Searchmux, SearchmuxError } from "@searchmux/client";',
        'const smx = new Searchmux({ token: "smx_x", baseUrl: "http://localhost:3000" });',
        'const { results } = await smx.webSearch({ query: "q", max_results: 3 });',
        "const first: string | undefined = results[0]?.url;",
        'const { estimate } = await smx.webSearch({ query: "q", estimate: true });',
        "const cost: number = estimate.max_cost_usd;",
        'const job = await smx.getResearch({ id: "00000000-0000-0000-0000-000000000000" });',
        'const state: "queued" | "running" | "succeeded" | "failed" | "cancelled" = job.status;',
        "// @ts-expect-error an unknown field",
        'await smx.webSearch({ query: "q", max_result: 3 });',
        "// @ts-expect-error a field of the wrong type",
        'await smx.webSearch({ query: "q", max_results: "three" });',
        "const error: unknown = null;",
        "if (error instanceof SearchmuxError) console.log(error.status, error.code, error.retryAfter);",
        "console.log(first, cost, state);",
        "export {};",
      ].join("\n"),
    );
    const tsc = path.resolve("node_modules/typescript/bin/tsc");
    const options =
      "--noEmit --strict --target es2022 --module esnext --moduleResolution bundler --lib es2023,dom";
    await expect(
      run(process.execPath, [tsc, ...options.split(" "), "use.ts"], { cwd: consumer, timeout: 120_000 }),
    ).resolves.toBeDefined();
  }, 150_000);
});

/** Runs `script` in python3 with clients/python on the path and the server's address; answers its JSON. */
async function python(script: string, env: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const prelude = [
    "import json, os, sys",
    "from searchmux import Searchmux, SearchmuxError",
    "def failure(call):",
    "    try:",
    "        call()",
    "    except SearchmuxError as e:",
    "        return {'status': e.status, 'code': e.code, 'message': e.message, 'retry_after': e.retry_after}",
    "    raise AssertionError('the call succeeded')",
  ].join("\n");
  const { stdout } = await run("python3", ["-c", `${prelude}\n${script}`], {
    env: {
      NODE_ENV: "test",
      PATH: process.env.PATH ?? "",
      PYTHONPATH: path.resolve("clients/python"),
      PYTHONDONTWRITEBYTECODE: "1",
      SEARCHMUX_URL: server.origin,
      SEARCHMUX_TOKEN: token,
      ...env,
    },
    timeout: 120_000,
  });
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe("Python client (clients/python/searchmux.py)", () => {
  it("searches with the token and URL from the environment", async () => {
    fake.setScenario("duckduckgo", {
      results: [{ title: "Py client", url: "https://py.example/a", snippet: "stdlib" }],
    });
    const out = await python(
      `r = Searchmux().web_search(query="python client", providers=${JSON.stringify(PROVIDERS)}, max_results=5)\n` +
        "print(json.dumps({'query': r['query'], 'urls': [x['url'] for x in r['results']]}))",
    );
    expect(out.query).toBe("python client");
    expect(out.urls).toContain("https://py.example/a");
  });

  it("raises SearchmuxError: 401 for a bad token, 400 for invalid input", async () => {
    const out = await python(
      [
        "bad = failure(lambda: Searchmux(token='smx_not-a-token').web_search(query='x'))",
        "invalid = failure(lambda: Searchmux().web_search(query='x', max_results='ten'))",
        "print(json.dumps({'bad': bad, 'invalid': invalid}))",
      ].join("\n"),
    );
    expect(out.bad).toMatchObject({ status: 401, code: "unauthorized", retry_after: null });
    expect(out.invalid).toMatchObject({ status: 400, code: "invalid_input" });
  });

  it("reports Retry-After of a 429 in seconds", async () => {
    const admin = await newToken(await operatorWorkspace("clients-rate"), {
      name: "admin",
      scopes: ["search", "admin"],
    });
    const out = await python(
      [
        "admin = Searchmux()",
        "admin.update_settings(rate_limit_rpm=1)",
        // A token's verdict, its workspace's limit with it, is cached: a new token reads the new limit.
        "smx = Searchmux(token=admin.create_token(name='limited', scopes=['search'])['token'])",
        "print(json.dumps(failure(lambda: [smx.budget_status() for _ in range(3)])))",
      ].join("\n"),
      { SEARCHMUX_TOKEN: admin },
    );
    expect(out).toMatchObject({ status: 429, code: "rate_limited" });
    expect(out.retry_after).toBeGreaterThan(0);
  });

  it("starts a research job and polls it until it ends", async () => {
    fake.setScenario(SNIPPET_MODEL, { status: 500 });
    const out = await python(
      [
        "job = Searchmux().research('Why poll?', providers=['duckduckgo'], max_queries=1, poll_interval=0.05, timeout=60)",
        "again = Searchmux().get_research(job['id'])",
        "print(json.dumps({'status': job['status'], 'again': again['status']}))",
      ].join("\n"),
    );
    expect(["succeeded", "failed"]).toContain(out.status);
    expect(out.again).toBe(out.status);
  }, 90_000);

  it("escapes path parameters, refuses redirects, shows no token, reads a proxy's page", async () => {
    trapped = 0;
    const out = await python(
      [
        "climb = failure(lambda: Searchmux().get_research('../../keys'))",
        `redirect = failure(lambda: Searchmux(base_url='${redirector.origin}').budget_status())`,
        `proxy = failure(lambda: Searchmux(base_url='${proxyPage.origin}').budget_status())`,
        "print(json.dumps({'climb': climb, 'redirect': redirect, 'proxy': proxy,",
        "                  'repr': repr(Searchmux()) + str(Searchmux().__dict__.get('_token') is not None)}))",
      ].join("\n"),
    );
    expect([400, 404]).toContain((out.climb as { status: number }).status);
    expect(out.redirect).toMatchObject({ status: 307, code: "http_error" });
    expect(trapped).toBe(0);
    expect(out.proxy).toMatchObject({ status: 503, code: "http_error", retry_after: 7 });
    expect((out.proxy as { message: string }).message).toContain("Service Unavailable");
    expect(out.repr).toBe(`Searchmux(base_url='${server.origin}')True`);
    expect(String(out.repr)).not.toContain(token);
  });
});
