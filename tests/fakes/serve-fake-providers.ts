/**
 * The fake provider server as a standalone process on a fixed port, for `next start` under Playwright
 * (`tsx tests/fakes/serve-fake-providers.ts`; what is faked: tests/e2e/support/fake-providers.ts).
 * Requests are passed through to the in-process fake server; GET /health answers once it is up.
 */
import http from "node:http";
import { E2E_TAVILY_KEY, FAKED_PROVIDERS, FAKES_PORT } from "../e2e/support/fake-providers";
import { startFakeProviders } from "./provider-server";

const fake = await startFakeProviders();
for (const [id, latencyMs] of Object.entries(FAKED_PROVIDERS)) {
  fake.setScenario(id, id === "tavily" ? { latencyMs, expectedApiKey: E2E_TAVILY_KEY } : { latencyMs });
}
const upstream = new URL(fake.url);

const server = http.createServer((req, res) => {
  if (req.url === "/health") return void res.end("ok");
  const forward = http.request(
    { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  forward.on("error", () => res.destroy());
  req.pipe(forward);
});
server.listen(FAKES_PORT, "127.0.0.1");

const stop = () => void fake.close().finally(() => server.close(() => process.exit(0)));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
