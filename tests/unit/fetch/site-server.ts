/**
 * A loopback "website" for direct-fetch tests: fixed routes with status, headers and body, plus the
 * hostile behaviours (redirects, endless drip). Counts TCP connections so tests can prove none was made.
 * Reached only through the SSRF allowlist ("127.0.0.1"), never by weakening the guard.
 */
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface SiteRoute {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Location header for a 302. */
  redirect?: string;
  /** Sends headers, then one byte every 50 ms, forever. */
  endless?: boolean;
}

export interface Site {
  url: string;
  port: number;
  /** TCP connections accepted so far. */
  connections(): number;
  /** Request paths served so far. */
  hits(): string[];
  /** Resolves once the client gave up a response to `path` before its end (an endless drip ends only so). */
  dropped(path: string): Promise<void>;
  close(): Promise<void>;
}

export async function startSite(routes: Readonly<Record<string, SiteRoute>>): Promise<Site> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const hits: string[] = [];
  const dropped = new Set<string>();
  const onDropped = new Map<string, Array<() => void>>();
  let connections = 0;
  const server = http.createServer((req, res) => {
    const path = req.url ?? "/";
    hits.push(path);
    res.on("close", () => {
      if (res.writableFinished) return;
      dropped.add(path);
      for (const resolve of onDropped.get(path) ?? []) resolve();
      onDropped.delete(path);
    });
    // A route without a query answers any query too (distinct URLs of one page, e.g. the bench's soak).
    const route = routes[path] ?? routes[path.split("?")[0] ?? path];
    if (route === undefined) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
      return;
    }
    if (route.redirect !== undefined) {
      res.writeHead(302, { location: route.redirect });
      res.end();
      return;
    }
    if (route.endless) {
      res.writeHead(200, { "content-type": "text/html" });
      const timer = setInterval(() => res.write("x"), 50);
      timers.add(timer);
      res.on("close", () => {
        clearInterval(timer);
        timers.delete(timer);
      });
      return;
    }
    const body = route.body ?? "";
    res.writeHead(route.status ?? 200, {
      "content-type": "text/html; charset=utf-8",
      "content-length": String(Buffer.byteLength(body)),
      ...route.headers,
    });
    res.end(body);
  });
  server.on("connection", (socket) => {
    connections++;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    connections: () => connections,
    hits: () => [...hits],
    dropped: (path) =>
      new Promise<void>((resolve) => {
        if (dropped.has(path)) return resolve();
        onDropped.set(path, [...(onDropped.get(path) ?? []), resolve]);
      }),
    close: async () => {
      for (const timer of timers) clearInterval(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
