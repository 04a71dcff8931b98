/**
 * A fixed-port stand-in for the fake provider server, for a benchmark against a server started
 * elsewhere: that server's *_BASE_URL variables name this port, and every request is relayed to the
 * fake server (which always listens on a random port).
 */
import { once } from "node:events";
import http from "node:http";

export interface Forwarder {
  origin: string;
  close(): Promise<void>;
}

export async function startForwarder(port: number, target: string): Promise<Forwarder> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const server = http.createServer((req, res) => {
    const upstream = http.request(
      `${target}${req.url ?? "/"}`,
      { method: req.method, headers: req.headers, agent },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    res.on("close", () => upstream.destroy());
    req.pipe(upstream);
  });
  server.listen(port, "127.0.0.1");
  await once(server, "listening");
  return {
    origin: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      agent.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
