/**
 * Fake provider HTTP server for unit, engine fan-out, reliability tests and benchmarks.
 *
 * One node:http server on 127.0.0.1 (random port) impersonates every search provider. Each provider
 * lives under its own path prefix and answers in that provider's real, documented wire format, on the
 * exact method + path its adapter calls (anything else answers 404, which catches path bugs):
 *
 *   const fake = await startFakeProviders();
 *   fake.baseUrlFor("brave");               // "http://127.0.0.1:PORT/brave" -> pass as ProviderCall.baseUrl
 *   fake.setScenario("brave", { results: [{ title, url, snippet }] });
 *   fake.setScenario("tavily", { status: 429, retryAfter: "30" });
 *   fake.setScenario("exa", { fault: "hang" });
 *   fake.requests("brave");                 // what the adapter sent (method, path, query, headers, body)
 *   await fake.close();
 *
 * Scenario knobs (all optional, per provider, replaced wholesale by setScenario):
 *   results        results to return, in rank order (default: DEFAULT_RESULTS, shared URLs across providers
 *                  so fusion has overlaps). Wikipedia has no URLs on the wire: its adapter derives them from
 *                  titles. Titles/snippets are emitted verbatim, so tests can embed markup and entities.
 *   resultsFor     results by the query text of the request (each wire knows where its provider sends it),
 *                  for corpora where each query has its own results (bench/scenarios/auto-fanout.ts).
 *   latencyMs      delay before the response starts (applies to every mode).
 *   status         answer with this non-2xx status and a JSON error body (401, 403, 429, 500, 502, 503, …).
 *   retryAfter     Retry-After header sent with status 429 (default "7"; null sends none).
 *   headers        extra response headers, on every answer and error (a provider's rate-limit headers).
 *   expectedApiKey when set, a request whose credential (header or query, as the provider expects it)
 *                  differs gets 401, like the real API.
 *   body           200 with this JSON instead of the wire's own answer (a provider whose answer changed shape).
 *   fault          "hang"       accept the request and never answer;
 *                  "garbage"    200 with malformed JSON;
 *                  "html"       200 text/html page where JSON is expected;
 *                  "huge"       200 JSON body of `hugeBytes` (default 6 MiB), streamed without content-length;
 *                  "slowDrip"   200 with the real body, one byte per second;
 *                  "reset"      send headers and half the body, then destroy the socket;
 *                  "ddgAntiBot" DuckDuckGo's HTTP 202 anomaly page; "ddgAnomaly" the same page with 200.
 *
 * Other tools' providers (fetch, answer, papers) plug in as wire modules: `startFakeProviders({ ...fetchWires })`,
 * each wire rendering from `scenario.payload` in its provider's documented shape; the fault knobs apply alike.
 * A wire keyed `<id>/<name>` is a variant of provider `id` (its news endpoint, say): it answers the requests
 * to its method and path that it `accepts`, sharing the provider's scenario and request log; others reach
 * the provider's own wire.
 *
 * Recorded requests carry `connection`, a per-socket counter, so keep-alive reuse can be asserted.
 *
 * Order, not time: tests prove "in parallel" and "did not wait" with events rather than wall-clock bounds
 * (a loaded machine misses any bound in milliseconds):
 *   fake.events()        every request's arrival, answer (headers sent) or abort (the client went away
 *                        first), in the order the server saw them;
 *   fake.maxInFlight()   the most requests held at once (arrived, neither answered nor aborted);
 *   fake.seen(id, kind)  resolves once a request to `id` arrived (or was answered, or aborted), e.g. to cancel
 *                        a call once it is in flight or to wait for the client to give a request up;
 *   holdUntilInFlight    scenario knob: answer only once that many requests are in flight at the same
 *                        time (then `latencyMs` applies), so a fan-out that is not parallel never completes.
 */
import { once } from "node:events";
import http from "node:http";
import https from "node:https";
import type { AddressInfo, Socket } from "node:net";

export const FAKE_PROVIDER_IDS = [
  "duckduckgo",
  "searxng",
  "wikipedia",
  "tavily",
  "brave",
  "exa",
  "serper",
  "serpapi",
  "kagi",
  "jina",
  "you",
  "linkup",
  "firecrawl",
  "perplexity",
] as const;
export type FakeProviderId = (typeof FAKE_PROVIDER_IDS)[number];

export interface FakeResult {
  title: string;
  url: string;
  snippet: string;
  publishedAt?: string;
  /** The publisher, where a wire reports one (news). */
  source?: string;
}

type FakeFault = "hang" | "garbage" | "html" | "huge" | "slowDrip" | "reset" | "ddgAntiBot" | "ddgAnomaly";

export interface FakeScenario {
  /** Search results (search wires). */
  results?: readonly FakeResult[];
  /** Search results by the query the request carries (search wires); `results` when absent. */
  resultsFor?: (query: string) => readonly FakeResult[];
  /** What a non-search wire renders (answers, papers, pages); each wire module documents its shape. */
  payload?: unknown;
  latencyMs?: number;
  status?: number;
  retryAfter?: string | null;
  /** Sent with every answer and error, over the wire's own (rate-limit headers, say). */
  headers?: Readonly<Record<string, string>>;
  expectedApiKey?: string;
  /** Answer 200 with this JSON instead of the wire's own body: a provider that changed its answer's shape. */
  body?: unknown;
  fault?: FakeFault;
  hugeBytes?: number;
  /**
   * Hold the answer until at least this many requests (to any provider of this server) are in flight at
   * once; `latencyMs` counts from then. Requests still held when the server closes are never answered.
   */
  holdUntilInFlight?: number;
}

/** What the server saw, in order: `seq` counts every event of the server from 1. */
interface FakeEvent {
  seq: number;
  /** The provider prefix the request was for. */
  id: string;
  kind: "arrived" | "answered" | "aborted";
  /** The request's own number (its `arrived` event's seq), to pair its answer or abort with it. */
  request: number;
}

export interface RecordedRequest {
  method: string;
  /** Path below the provider's prefix, e.g. "/res/v1/web/search". */
  path: string;
  query: Record<string, string>;
  /** Lowercased header names. */
  headers: Record<string, string>;
  /** Parsed JSON or form body (object), the raw text otherwise, undefined when empty. */
  body: unknown;
  /** Per-socket counter: equal values mean the client reused a keep-alive connection. */
  connection: number;
  /** The seq of this request's `arrived` event (see FakeEvent). */
  seq: number;
}

export interface FakeProviders {
  /** Server origin, e.g. "http://127.0.0.1:41234". */
  url: string;
  baseUrlFor(id: string): string;
  setScenario(id: string, scenario: FakeScenario): void;
  /** Back to the default scenario (DEFAULT_RESULTS, no faults) for every provider. */
  resetScenarios(): void;
  requests(id: string): RecordedRequest[];
  /** Forgets recorded requests and events; requests still held (a hang) stop counting as in flight. */
  clearRequests(): void;
  /** Arrivals, answers and aborts since the last clearRequests(), in the order they happened. */
  events(): FakeEvent[];
  /** The most requests in flight at once since the last clearRequests(). */
  maxInFlight(): number;
  /** Resolves once `count` (default 1) `kind` events for `id` happened since the last clearRequests(). */
  seen(id: string, kind: FakeEvent["kind"], count?: number): Promise<void>;
  close(): Promise<void>;
}

const DEFAULT_RESULTS: readonly FakeResult[] = [1, 2, 3].map((n) => ({
  title: `Result ${n}`,
  url: `https://example.com/result-${n}`,
  snippet: `Snippet number ${n} about the query.`,
}));

export interface FakeResponse {
  status?: number;
  contentType: string;
  body: string;
}

/**
 * One fake endpoint. Search wires live here; other tools' wires (fetch, answer, papers) live in their
 * own modules under tests/fakes/ and are passed to startFakeProviders().
 */
export interface FakeWire {
  method: "GET" | "POST";
  path: string;
  /** The credential as the provider expects it (header or query), for `expectedApiKey`. */
  credential(request: RecordedRequest): string | undefined;
  /** A search wire's query text, where its provider sends it (for `resultsFor`). */
  searchedFor?(request: RecordedRequest): string | undefined;
  render(scenario: FakeScenario, request: RecordedRequest): FakeResponse;
  /** Headers the provider sends with every response, answers and errors (Brave's rate-limit headers). */
  headers?: Readonly<Record<string, string>>;
  /** A variant's (`<id>/<name>`) test of a request to its method and path; every such request without it. */
  accepts?(request: RecordedRequest): boolean;
}

export const json = (value: unknown): FakeResponse => ({
  contentType: "application/json",
  body: JSON.stringify(value),
});
export const bearer = (request: RecordedRequest) => request.headers.authorization?.replace(/^Bearer\s+/i, "");
export const header = (name: string) => (request: RecordedRequest) => request.headers[name];
export const keyless = () => undefined;
export const param = (name: string) => (request: RecordedRequest) => request.query[name];
export const body = (name: string) => (request: RecordedRequest) => {
  const value = (request.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === "string" ? value : undefined;
};

/**
 * Brave's rate-limit headers (api-dashboard.search.brave.com/documentation/guides/rate-limiting) as a paid
 * plan sends them with every response: 50 requests a second, 20 million a month, plenty left. A key's first
 * response tells the gateway it is not on the free plan (1 a second), so it is not paced.
 */
export const BRAVE_PAID_PLAN_HEADERS: Readonly<Record<string, string>> = {
  "x-ratelimit-limit": "50, 20000000",
  "x-ratelimit-policy": "50;w=1, 20000000;w=2592000",
  "x-ratelimit-remaining": "49, 19999000",
  "x-ratelimit-reset": "1, 1419704",
};

/** Each provider's endpoint and response shape, as documented by the provider (see the adapters' headers). */
export const SEARCH_WIRES: Readonly<Record<FakeProviderId, FakeWire>> = {
  tavily: {
    method: "POST",
    path: "/search",
    credential: bearer,
    searchedFor: body("query"),
    render: ({ results = DEFAULT_RESULTS }) =>
      json({
        query: "fake",
        answer: null,
        images: [],
        results: results.map((r, i) => ({
          title: r.title,
          url: r.url,
          content: r.snippet,
          score: 1 - i / 100,
          raw_content: null,
          published_date: r.publishedAt,
        })),
        response_time: 0.42,
      }),
  },
  brave: {
    method: "GET",
    path: "/res/v1/web/search",
    credential: header("x-subscription-token"),
    searchedFor: param("q"),
    headers: BRAVE_PAID_PLAN_HEADERS,
    render: ({ results = DEFAULT_RESULTS }) =>
      json({
        type: "search",
        query: { original: "fake", more_results_available: false },
        web: {
          type: "search",
          results: results.map((r) => ({
            type: "search_result",
            title: r.title,
            url: r.url,
            description: r.snippet,
            page_age: r.publishedAt,
            extra_snippets: [],
          })),
        },
      }),
  },
  exa: {
    method: "POST",
    path: "/search",
    credential: (request) => request.headers["x-api-key"] ?? bearer(request),
    searchedFor: body("query"),
    render: ({ results = DEFAULT_RESULTS }) =>
      json({
        requestId: "fake-request",
        resolvedSearchType: "neural",
        results: results.map((r, i) => ({
          id: r.url,
          title: r.title,
          url: r.url,
          publishedDate: r.publishedAt ?? null,
          author: null,
          score: 1 - i / 100,
          text: r.snippet,
        })),
      }),
  },
  serper: {
    method: "POST",
    path: "/search",
    credential: header("x-api-key"),
    searchedFor: body("q"),
    render: ({ results = DEFAULT_RESULTS }) =>
      json({
        searchParameters: { q: "fake", type: "search", engine: "google" },
        organic: results.map((r, i) => ({
          title: r.title,
          link: r.url,
          snippet: r.snippet,
          date: r.publishedAt,
          position: i + 1,
        })),
        credits: 1,
      }),
  },
  serpapi: {
    method: "GET",
    path: "/search.json",
    credential: (request) => request.query.api_key,
    searchedFor: param("q"),
    render: ({ results = DEFAULT_RESULTS }) =>
      json({
        search_metadata: { id: "fake", status: "Success" },
        search_parameters: { engine: "google", q: "fake" },
        organic_results: results.map((r, i) => ({
          position: i + 1,
          title: r.title,
          link: r.url,
          snippet: r.snippet,
          date: r.publishedAt,
        })),
      }),
  },
  kagi: {
    method: "GET",
    path: "/search",
    credential: (request) => request.headers.authorization?.replace(/^Bot\s+/i, ""),
    searchedFor: param("q"),
    render: ({ results = DEFAULT_RESULTS }) =>
      json({
        meta: { id: "fake", node: "local", ms: 1, api_balance: 10 },
        data: [
          ...results.map((r, i) => ({
            t: 0,
            rank: i + 1,
            url: r.url,
            title: r.title,
            snippet: r.snippet,
            published: r.publishedAt,
          })),
          { t: 1, list: ["related search one", "related search two"] },
        ],
      }),
  },
  jina: {
    method: "POST",
    path: "/",
    credential: bearer,
    searchedFor: body("q"),
    render: ({ results = DEFAULT_RESULTS }) =>
      json({
        code: 200,
        status: 20000,
        data: results.map((r) => ({
          title: r.title,
          url: r.url,
          description: r.snippet,
          date: r.publishedAt,
          usage: { tokens: 1000 },
        })),
      }),
  },
  you: {
    method: "GET",
    path: "/v1/search",
    credential: header("x-api-key"),
    searchedFor: param("query"),
    render: ({ results = DEFAULT_RESULTS }) =>
      json({
        results: {
          web: results.map((r) => ({
            url: r.url,
            title: r.title,
            description: r.snippet,
            snippets: [r.snippet],
            page_age: r.publishedAt,
          })),
          news: [{ title: "A news item", description: "news", url: "https://news.example.com/item" }],
        },
        metadata: { request_uuid: "fake", query: "fake", latency: 0.1 },
      }),
  },
  linkup: {
    method: "POST",
    path: "/search",
    credential: bearer,
    searchedFor: body("q"),
    render: ({ results = DEFAULT_RESULTS }) =>
      json({
        results: [
          ...results.map((r) => ({ type: "text", name: r.title, url: r.url, content: r.snippet })),
          { type: "image", name: "An image", url: "https://images.example.com/picture.png" },
        ],
      }),
  },
  firecrawl: {
    method: "POST",
    path: "/v2/search",
    credential: bearer,
    searchedFor: body("query"),
    render: ({ results = DEFAULT_RESULTS }) =>
      json({
        success: true,
        data: {
          web: results.map((r, i) => ({
            url: r.url,
            title: r.title,
            description: r.snippet,
            position: i + 1,
          })),
        },
        creditsUsed: 2,
      }),
  },
  perplexity: {
    method: "POST",
    path: "/search",
    credential: bearer,
    searchedFor: body("query"),
    render: ({ results = DEFAULT_RESULTS }) =>
      json({
        id: "fake",
        results: results.map((r) => ({
          title: r.title,
          url: r.url,
          snippet: r.snippet,
          date: r.publishedAt,
          last_updated: r.publishedAt,
        })),
      }),
  },
  searxng: {
    method: "GET",
    path: "/search",
    credential: keyless,
    searchedFor: param("q"),
    render: ({ results = DEFAULT_RESULTS }) =>
      json({
        query: "fake",
        number_of_results: 0,
        results: results.map((r, i) => ({
          url: r.url,
          title: r.title,
          content: r.snippet,
          engine: "fake",
          engines: ["fake"],
          score: 1 - i / 100,
          publishedDate: r.publishedAt ?? null,
        })),
        answers: [],
        corrections: [],
        infoboxes: [],
        suggestions: [],
        unresponsive_engines: [],
      }),
  },
  wikipedia: {
    method: "GET",
    path: "/w/api.php",
    credential: keyless,
    searchedFor: param("srsearch"),
    render: ({ results = DEFAULT_RESULTS }) =>
      json({
        batchcomplete: "",
        continue: { sroffset: results.length, continue: "-||" },
        query: {
          searchinfo: { totalhits: results.length },
          search: results.map((r, i) => ({
            ns: 0,
            title: r.title,
            pageid: 1000 + i,
            size: 1234,
            wordcount: 200,
            snippet: r.snippet,
            timestamp: r.publishedAt ?? "2024-01-01T00:00:00Z",
          })),
        },
      }),
  },
  duckduckgo: {
    method: "POST",
    path: "/html/",
    credential: keyless,
    searchedFor: body("q"),
    render: ({ results = DEFAULT_RESULTS }) => ({
      contentType: "text/html; charset=UTF-8",
      body: duckDuckGoPage(results),
    }),
  },
};

/** The variant wire (`<prefix>/<name>`) that answers this request, if any. */
function variantFor(wires: Readonly<Record<string, FakeWire>>, prefix: string, request: RecordedRequest) {
  return Object.entries(wires).find(
    ([key, wire]) =>
      key.startsWith(`${prefix}/`) &&
      wire.method === request.method &&
      wire.path === request.path &&
      (wire.accepts?.(request) ?? true),
  )?.[1];
}

export interface FakeServerOptions {
  /** Serve HTTPS with this certificate (for 127.0.0.1) instead of plain HTTP. */
  tls?: { key: string; cert: string };
}

/** Starts the fake server with every search wire plus `extraWires` (keyed by provider id = path prefix). */
export async function startFakeProviders(
  extraWires: Readonly<Record<string, FakeWire>> = {},
  options: FakeServerOptions = {},
): Promise<FakeProviders> {
  const wires: Readonly<Record<string, FakeWire>> = { ...SEARCH_WIRES, ...extraWires };
  const scenarios = new Map<string, FakeScenario>();
  const recorded = new Map<string, RecordedRequest[]>();
  const sockets = new Set<Socket>();
  const connectionIds = new WeakMap<Socket, number>();
  const timers = new Set<NodeJS.Timeout>();
  let nextConnection = 0;
  let closing = false;
  let seq = 0;
  let events: FakeEvent[] = [];
  const inFlight = new Set<number>();
  let maxInFlight = 0;
  /** Woken on every event: held answers and seen() waiters check their condition. */
  let waiters: Array<() => boolean> = [];
  const wake = () => {
    waiters = waiters.filter((done) => !done());
  };
  const until = (condition: () => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!condition()) return false;
        resolve();
        return true;
      };
      if (!check()) waiters.push(check);
    });
  const note = (id: string, kind: FakeEvent["kind"], request: number) => {
    const event: FakeEvent = { seq: ++seq, id, kind, request };
    events.push(event);
    if (kind === "arrived") {
      inFlight.add(request);
      maxInFlight = Math.max(maxInFlight, inFlight.size);
    } else {
      inFlight.delete(request);
    }
    wake();
  };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const listener: http.RequestListener = (req, res) => {
    void handle(req, res).catch(() => res.destroy());
  };
  const server = options.tls ? https.createServer(options.tls, listener) : http.createServer(listener);
  server.on("connection", (socket) => {
    sockets.add(socket);
    connectionIds.set(socket, ++nextConnection);
    socket.on("close", () => sockets.delete(socket));
  });

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://fake.local");
    const [, prefix = "", ...rest] = url.pathname.split("/");
    const id = prefix;
    // Recorded even without a wire, so a test can see that a request reached no provider at all.
    const request: RecordedRequest = {
      method: req.method ?? "GET",
      path: `/${rest.join("/")}`,
      query: Object.fromEntries(url.searchParams),
      headers: flattenHeaders(req.headers),
      body: parseBody(await readBody(req), req.headers["content-type"]),
      connection: connectionIds.get(req.socket) ?? 0,
      seq: seq + 1,
    };
    const wire = variantFor(wires, prefix, request) ?? wires[prefix];
    const log = recorded.get(id) ?? [];
    log.push(request);
    recorded.set(id, log);
    note(id, "arrived", request.seq);
    // The first of the two ends the request's flight: headers sent (answered) or the client gone (aborted).
    const originalWriteHead = res.writeHead.bind(res) as (...args: unknown[]) => http.ServerResponse;
    res.writeHead = ((...args: unknown[]) => {
      if (inFlight.has(request.seq)) note(id, "answered", request.seq);
      return originalWriteHead(...args);
    }) as typeof res.writeHead;
    res.on("close", () => {
      if (inFlight.has(request.seq)) note(id, "aborted", request.seq);
    });
    if (!wire) return send(res, { status: 404, ...json({ error: `unknown provider prefix /${prefix}` }) });

    const scenario = scenarios.get(id) ?? {};
    const hold = scenario.holdUntilInFlight;
    if (hold) await until(() => closing || res.destroyed || inFlight.size >= hold);
    if (closing) return;
    if (scenario.latencyMs) await sleep(scenario.latencyMs);
    if (closing) return;

    if (request.method !== wire.method || request.path !== wire.path) {
      return send(res, {
        status: 404,
        ...json({
          error: `fake ${id} serves ${wire.method} ${wire.path}, got ${request.method} ${request.path}`,
        }),
      });
    }
    if (scenario.expectedApiKey !== undefined && wire.credential(request) !== scenario.expectedApiKey) {
      return send(res, { status: 401, ...json({ error: "invalid API key" }) });
    }
    if (scenario.status !== undefined) {
      const retryAfter = scenario.retryAfter === undefined ? "7" : scenario.retryAfter;
      const headers: Record<string, string> = {
        ...wire.headers,
        ...(scenario.status === 429 && retryAfter !== null ? { "retry-after": retryAfter } : {}),
        ...scenario.headers,
      };
      return send(
        res,
        { status: scenario.status, ...json({ error: `fake ${id} status ${scenario.status}` }) },
        headers,
      );
    }
    const searched = scenario.resultsFor && {
      results: scenario.resultsFor(wire.searchedFor?.(request) ?? ""),
    };
    const rendered =
      scenario.body === undefined ? wire.render({ ...scenario, ...searched }, request) : json(scenario.body);
    switch (scenario.fault) {
      case "hang":
        return;
      case "garbage":
        return send(res, { contentType: "application/json", body: '{"results": [{"title": "unterminated' });
      case "html":
        return send(res, { contentType: "text/html; charset=utf-8", body: CHALLENGE_HTML });
      case "huge":
        return streamHuge(res, scenario.hugeBytes ?? 6 * 1024 * 1024);
      case "slowDrip":
        return drip(res, rendered);
      case "reset":
        res.writeHead(200, {
          "content-type": rendered.contentType,
          "content-length": Buffer.byteLength(rendered.body),
        });
        res.write(rendered.body.slice(0, Math.floor(rendered.body.length / 2)));
        await sleep(20);
        req.socket.destroy();
        return;
      case "ddgAntiBot":
        return send(res, {
          status: 202,
          contentType: "text/html; charset=UTF-8",
          body: DUCKDUCKGO_ANOMALY_PAGE,
        });
      case "ddgAnomaly":
        return send(res, {
          status: 200,
          contentType: "text/html; charset=UTF-8",
          body: DUCKDUCKGO_ANOMALY_PAGE,
        });
      default:
        return send(res, rendered, { ...wire.headers, ...scenario.headers });
    }
  }

  async function streamHuge(res: http.ServerResponse, bytes: number): Promise<void> {
    res.writeHead(200, { "content-type": "application/json" });
    const chunk = "x".repeat(64 * 1024);
    res.write('{"padding":"');
    for (let sent = 0; sent < bytes && !res.destroyed && !closing; sent += chunk.length) {
      if (!res.write(chunk)) await drainedOrClosed(res);
    }
    if (!res.destroyed) res.end('"}');
  }

  async function drip(res: http.ServerResponse, rendered: FakeResponse): Promise<void> {
    res.writeHead(200, { "content-type": rendered.contentType });
    for (const byte of Buffer.from(rendered.body)) {
      if (res.destroyed || closing) return;
      res.write(Buffer.of(byte));
      await sleep(1000);
    }
    res.end();
  }

  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  const origin = `${options.tls ? "https" : "http"}://127.0.0.1:${port}`;

  return {
    url: origin,
    baseUrlFor: (id) => `${origin}/${id}`,
    setScenario: (id, scenario) => {
      scenarios.set(id, scenario);
    },
    resetScenarios: () => scenarios.clear(),
    requests: (id) => [...(recorded.get(id) ?? [])],
    clearRequests: () => {
      // A new page: requests still held from before (a hang) no longer count nor log their end.
      recorded.clear();
      events = [];
      inFlight.clear();
      maxInFlight = 0;
    },
    events: () => [...events],
    maxInFlight: () => maxInFlight,
    seen: (id, kind, count = 1) =>
      until(() => events.filter((event) => event.id === id && event.kind === kind).length >= count),
    close: async () => {
      closing = true;
      wake();
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Waits for backpressure to clear (or the client to go away), removing both listeners afterwards. */
function drainedOrClosed(res: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}

function send(res: http.ServerResponse, rendered: FakeResponse, headers: Record<string, string> = {}): void {
  res.writeHead(rendered.status ?? 200, {
    "content-type": rendered.contentType,
    "content-length": Buffer.byteLength(rendered.body),
    ...headers,
  });
  res.end(rendered.body);
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}

function parseBody(text: string, contentType: string | undefined): unknown {
  if (text === "") return undefined;
  if (contentType?.includes("application/json")) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  if (contentType?.includes("application/x-www-form-urlencoded"))
    return Object.fromEntries(new URLSearchParams(text));
  return text;
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return flat;
}

const CHALLENGE_HTML =
  "<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><h1>Checking your browser</h1></body></html>";

/** DuckDuckGo's bot-challenge page: served with 202 (rate limit) or 200. */
const DUCKDUCKGO_ANOMALY_PAGE = `<!DOCTYPE html><html><head><title>DuckDuckGo</title></head><body>
<div class="anomaly-modal__modal" data-testid="anomaly-modal">
<div class="anomaly-modal__title">Unfortunately, bots use DuckDuckGo too.</div>
<form id="challenge-form" action="/anomaly.js" method="POST"><input type="hidden" name="cc" value="botnet"></form>
</div></body></html>`;

/** A DuckDuckGo HTML results page: one ad first (skipped by adapters), then organic results via /l/?uddg=. */
function duckDuckGoPage(results: readonly FakeResult[]): string {
  const ad = `<div class="result results_links results_links_deep result--ad">
  <div class="links_main links_deep result__body">
    <h2 class="result__title"><a class="result__a" rel="nofollow" href="https://duckduckgo.com/y.js?ad_domain=ads.example&amp;u3=x">Sponsored thing</a></h2>
    <a class="result__snippet" href="https://duckduckgo.com/y.js?ad_domain=ads.example">Buy now</a>
  </div></div>`;
  const organic = results.map((r) => {
    const link = `//duckduckgo.com/l/?uddg=${encodeURIComponent(r.url)}&amp;rut=fake`;
    return `<div class="result results_links results_links_deep web-result ">
  <div class="links_main links_deep result__body">
    <h2 class="result__title"><a rel="nofollow" class="result__a" href="${link}">${r.title}</a></h2>
    <div class="result__extras"><a class="result__url" href="${link}">${new URL(r.url).host}</a></div>
    <a class="result__snippet" href="${link}">${r.snippet}</a>
  </div></div>`;
  });
  return `<!DOCTYPE html><html><head><title>query at DuckDuckGo</title></head><body>
<div id="links" class="results">${ad}${organic.join("\n")}</div>
<form action="/html/" method="post"><input type="hidden" name="vqd" value="4-123"></form>
</body></html>`;
}
