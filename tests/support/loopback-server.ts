/**
 * A test's HTTP server on a random loopback port: its origin, and a close() that ends the connections still
 * open (kept-alive or held requests) before it waits for the server, so no test hangs on a socket.
 */
import { once } from "node:events";
import type { Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface LoopbackServer {
  origin: string;
  close(): Promise<void>;
}

export async function listenOnLoopback(server: Server, host = "127.0.0.1"): Promise<LoopbackServer> {
  const sockets = new Set<Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.listen(0, host);
  await once(server, "listening");
  return {
    origin: `http://${host}:${(server.address() as AddressInfo).port}`,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
