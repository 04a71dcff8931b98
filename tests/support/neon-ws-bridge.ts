/**
 * A local stand-in for Neon's WebSocket proxy: each WebSocket connection to `/v1?address=host:port`
 * is piped to a TCP connection to that Postgres. With `neonConfig.wsProxy` pointed here,
 * @neondatabase/serverless runs against the machine's real PostgreSQL. Loopback targets only.
 */
import type { AddressInfo } from "node:net";
import net from "node:net";
import { WebSocketServer } from "ws";

export interface NeonWsBridge {
  /** Value for SEARCHMUX_NEON_WS_PROXY / neonConfig.wsProxy: `127.0.0.1:<port>/v1`. */
  proxy: string;
  connections(): number;
  close(): Promise<void>;
}

export async function startNeonWsBridge(): Promise<NeonWsBridge> {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  let opened = 0;
  server.on("connection", (socket, request) => {
    const address = new URL(request.url ?? "/", "http://bridge").searchParams.get("address") ?? "";
    const [host, port] = address.split(":");
    if (host !== "127.0.0.1" && host !== "localhost") {
      socket.close(1008, "loopback only");
      return;
    }
    opened++;
    const tcp = net.connect({ host, port: Number(port) });
    socket.on("message", (data: Buffer) => tcp.write(data));
    tcp.on("data", (data) => socket.send(data));
    socket.on("close", () => tcp.destroy());
    tcp.on("close", () => socket.close());
    tcp.on("error", () => socket.close());
  });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    proxy: `127.0.0.1:${port}/v1`,
    connections: () => opened,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}
