/**
 * The fake provider server as a standalone process on a fixed port, for `next start` under Playwright
 * (`tsx tests/fakes/serve-fake-providers.ts`; what is faked: tests/e2e/support/fake-providers.ts).
 * Requests are passed through to the in-process fake server with every tool's wires; GET /health answers
 * once it is up, GET /_requests/<wire> lists what a wire received, PUT /_scenario/<wire> (a FakeScenario as
 * JSON) changes what it answers and DELETE /_scenario/<wire> restores its e2e default. Brave's and Serper's
 * image endpoints answer as variants of their search wires (their image adapters share the search base
 * URL), and the server listens on the allowlisted loopback address too (ALLOWLISTED_FAKES_ORIGIN).
 */
import http from "node:http";
import { CLIENT_SITE_ADDRESS } from "@/tests/e2e/support/client-site";
import {
  E2E_TAVILY_KEY,
  FAILING_STATUS,
  FAKED_PROVIDERS,
  FAKES_PORT,
  REQUEST_LOG_PATH,
  SCENARIO_PATH,
} from "@/tests/e2e/support/fake-providers";
import { ANSWER_WIRES } from "./answer-wires";
import { FETCH_WIRES } from "./fetch-wires";
import { IMAGE_WIRES, imageWireId } from "./image-wires";
import { NEWS_WIRES } from "./news-wires";
import { PAPER_WIRES } from "./paper-wires";
import { FAKE_PROVIDER_IDS, type FakeScenario, type FakeWire, startFakeProviders } from "./provider-server";
import { SNIPPET_MODEL_WIRES } from "./snippet-model-wire";

/** The image endpoints of providers whose image search shares the search base URL (and key). */
const SHARED_IMAGE_WIRES: Readonly<Record<string, FakeWire>> = Object.fromEntries(
  ["brave", "serper"].flatMap((id) => {
    const wire = IMAGE_WIRES[imageWireId(id)];
    return wire ? [[`${id}/images`, wire]] : [];
  }),
);
const extraWires = {
  ...FETCH_WIRES,
  ...ANSWER_WIRES,
  ...PAPER_WIRES,
  ...IMAGE_WIRES,
  ...NEWS_WIRES,
  ...SHARED_IMAGE_WIRES,
  ...SNIPPET_MODEL_WIRES,
};
const fake = await startFakeProviders(extraWires);

function defaultScenario(wire: string): FakeScenario {
  const latencyMs = FAKED_PROVIDERS[wire];
  if (latencyMs === undefined) return { status: FAILING_STATUS };
  return wire === "tavily" ? { latencyMs, expectedApiKey: E2E_TAVILY_KEY } : { latencyMs };
}
for (const wire of [...FAKE_PROVIDER_IDS, ...Object.keys(extraWires)])
  fake.setScenario(wire, defaultScenario(wire));
const upstream = new URL(fake.url);

async function setScenario(req: http.IncomingMessage, res: http.ServerResponse, wire: string) {
  if (req.method === "DELETE") fake.setScenario(wire, defaultScenario(wire));
  else {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    fake.setScenario(wire, JSON.parse(Buffer.concat(chunks).toString("utf8")) as FakeScenario);
  }
  res.writeHead(204).end();
}

const serve = (req: http.IncomingMessage, res: http.ServerResponse) => {
  if (req.url === "/health") return void res.end("ok");
  if (req.url?.startsWith(SCENARIO_PATH)) {
    const wire = decodeURIComponent(req.url.slice(SCENARIO_PATH.length));
    return void setScenario(req, res, wire).catch(() => res.writeHead(400).end());
  }
  if (req.url?.startsWith(REQUEST_LOG_PATH)) {
    const wire = decodeURIComponent(req.url.slice(REQUEST_LOG_PATH.length));
    res.writeHead(200, { "content-type": "application/json" });
    return void res.end(JSON.stringify(fake.requests(wire)));
  }
  const forward = http.request(
    { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  forward.on("error", () => res.destroy());
  req.pipe(forward);
};
const servers = ["127.0.0.1", CLIENT_SITE_ADDRESS].map((host) =>
  http.createServer(serve).listen(FAKES_PORT, host),
);

const stop = () =>
  void fake
    .close()
    .finally(() =>
      Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))).then(() =>
        process.exit(0),
      ),
    );
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
