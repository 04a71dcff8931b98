/**
 * The app's route handlers behind a real HTTP server on a loopback port, for clients that speak HTTP
 * themselves (the TypeScript and Python clients): each request handed to the route Next.js would serve it
 * from (app-routes.ts), a path no route serves answered 404 as Next.js would.
 */
import { createServer, type IncomingMessage } from "node:http";
import { routeFileFor, serveRequest } from "./app-routes";
import { type LoopbackServer, listenOnLoopback } from "./loopback-server";

async function toRequest(message: IncomingMessage): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of message) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(message.headers)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value])
      headers.append(name, one);
  }
  const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
  return new Request(new URL(message.url ?? "/", `http://${message.headers.host}`), {
    method: message.method,
    headers,
    body,
  });
}

export function startAppServer(): Promise<LoopbackServer> {
  const server = createServer(async (message, reply) => {
    const request = await toRequest(message);
    if (!routeFileFor(new URL(request.url).pathname)) {
      reply.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    const response = await serveRequest(request);
    reply.writeHead(response.status, Object.fromEntries(response.headers));
    reply.end(Buffer.from(await response.arrayBuffer()));
  });
  return listenOnLoopback(server);
}
