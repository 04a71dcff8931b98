/**
 * Test support: a local server that speaks Upstash's REST protocol in front of a real Redis, so the
 * Upstash adapter is tested through the unmodified `@upstash/redis` client (no Upstash emulator is
 * published). May import node built-ins and ioredis; nothing from the app.
 *
 * The protocol as `@upstash/redis` 1.x speaks it (node_modules/@upstash/redis, `HttpClient`):
 * - `POST /` with one command array, e.g. `["set","k","v","ex",10]` → `{"result": …}`;
 *   a Redis error → status 400 `{"error": "<message>"}` (the client throws it).
 * - `POST /pipeline` with an array of command arrays → `[{"result": …} | {"error": "…"}]`, status 200
 *   even when some commands fail; `POST /multi-exec` is the same inside MULTI/EXEC (`redis.multi()`).
 * - `Authorization: Bearer <token>`, otherwise 401 `{"error":"Unauthorized"}`.
 * - `Upstash-Encoding: base64`, sent by default: every string in a result is the base64 of its bytes,
 *   except the status reply `OK`, which the client takes verbatim. Integers stay JSON numbers, nil is
 *   null, arrays are encoded element by element.
 * - Command arguments arrive as JSON strings, numbers or booleans.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { Redis } from "ioredis";

export interface UpstashBridge {
  /** Base URL for `KV_REST_API_URL`. */
  url: string;
  close(): Promise<void>;
}

type RedisArgv = [string, ...string[]];
type Reply = { result: unknown } | { error: string };

export interface UpstashBridgeOptions {
  /** The real Redis behind the bridge. */
  redisUrl: string;
  /** The only bearer token accepted. */
  token: string;
}

export async function startUpstashBridge(options: UpstashBridgeOptions): Promise<UpstashBridge> {
  const redis = new Redis(options.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });

  const server = createServer((request, response) => {
    handle(redis, options.token, request, response).catch((error: unknown) => {
      send(response, 500, { error: errorMessage(error) });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("bridge: no TCP address");

  return {
    url: `http://127.0.0.1:${address.port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await redis.quit();
    },
  };
}

async function handle(redis: Redis, token: string, request: IncomingMessage, response: ServerResponse) {
  if (request.method !== "POST") return send(response, 405, { error: "Method Not Allowed" });
  if (request.headers.authorization !== `Bearer ${token}`) {
    return send(response, 401, { error: "Unauthorized" });
  }
  const base64 = request.headers["upstash-encoding"] === "base64";

  let body: unknown;
  try {
    body = JSON.parse(await readBody(request));
  } catch {
    return send(response, 400, { error: "ERR failed to parse request body" });
  }

  const path = new URL(request.url ?? "/", "http://bridge").pathname;
  if (path === "/") {
    const argv = toArgv(body);
    if (!argv) return send(response, 400, { error: "ERR expected a command array" });
    const [reply] = await runBatch(redis.pipeline(), [argv], base64);
    return send(response, reply && "error" in reply ? 400 : 200, reply);
  }
  if (path === "/pipeline" || path === "/multi-exec") {
    const commands = Array.isArray(body) ? body.map(toArgv) : [];
    if (commands.length === 0 || !commands.every((argv) => argv !== null)) {
      return send(response, 400, { error: "ERR expected an array of command arrays" });
    }
    const batch = path === "/pipeline" ? redis.pipeline() : redis.multi();
    return send(response, 200, await runBatch(batch, commands, base64));
  }
  return send(response, 404, { error: "Not Found" });
}

async function runBatch(
  batch: ReturnType<Redis["pipeline"]>,
  commands: readonly RedisArgv[],
  base64: boolean,
): Promise<Reply[]> {
  // Buffer replies keep values byte-exact for the base64 encoding.
  for (const argv of commands) batch.callBuffer(...argv);
  try {
    const replies = (await batch.exec()) ?? [];
    return replies.map(([error, result]) =>
      error ? { error: error.message } : { result: encodeResult(result, base64) },
    );
  } catch (error) {
    // MULTI/EXEC aborts as a whole (e.g. EXECABORT after a malformed command).
    return commands.map(() => ({ error: errorMessage(error) }));
  }
}

function encodeResult(value: unknown, base64: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => encodeResult(item, base64));
  if (typeof value !== "string" && !Buffer.isBuffer(value)) return value;
  const bytes = Buffer.from(value);
  const text = bytes.toString("utf8");
  return base64 && text !== "OK" ? bytes.toString("base64") : text;
}

function toArgv(value: unknown): RedisArgv | null {
  if (!Array.isArray(value)) return null;
  const argv: string[] = [];
  for (const arg of value) {
    if (typeof arg !== "string" && typeof arg !== "number" && typeof arg !== "boolean") return null;
    argv.push(String(arg));
  }
  const [name, ...args] = argv;
  return name === undefined ? null : [name, ...args];
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

function send(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
