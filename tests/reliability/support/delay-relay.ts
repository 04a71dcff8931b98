/**
 * A TCP relay that puts network distance between the app and a service (PostgreSQL, Redis): every chunk
 * is held for half the round-trip time in each direction, in order, so a statement that waits for its
 * answer costs one full `rttMs` — as reaching Neon or Upstash from a serverless function does.
 *
 * It also counts round trips: a client chunk that follows data from the server (or opens the
 * connection's conversation) starts a new one. A pipeline or a batch sent in one go counts once; each
 * statement that waits for the previous one's answer counts again.
 */
import { once } from "node:events";
import net from "node:net";

export interface DelayRelay {
  /** host:port to connect to instead of the service. */
  host: string;
  port: number;
  /** Round trips started since the relay opened (or since the last `resetRoundTrips`). */
  roundTrips(): number;
  resetRoundTrips(): void;
  close(): Promise<void>;
}

export interface DelayRelayOptions {
  /** The service: host and port. */
  target: { host: string; port: number };
  /** Round-trip time added, split evenly between the two directions. */
  rttMs: number;
}

/** Writes chunks to `socket` `delayMs` after they arrived, never reordering them. */
function delayedWriter(socket: net.Socket, delayMs: number): (chunk: Buffer) => void {
  let lastDue = 0;
  return (chunk) => {
    const due = Math.max(performance.now() + delayMs, lastDue);
    lastDue = due;
    const wait = due - performance.now();
    // Timers run in whole milliseconds and may round down: rounding up keeps the relay from being early.
    if (wait <= 0) socket.write(chunk);
    else setTimeout(() => socket.write(chunk), Math.ceil(wait));
  };
}

export async function startDelayRelay({ target, rttMs }: DelayRelayOptions): Promise<DelayRelay> {
  const oneWay = rttMs / 2;
  let roundTrips = 0;
  const sockets = new Set<net.Socket>();

  const server = net.createServer((client) => {
    const service = net.connect(target.port, target.host);
    client.setNoDelay(true);
    service.setNoDelay(true);
    sockets.add(client).add(service);
    let serverSpokeLast = true;
    const toService = delayedWriter(service, oneWay);
    const toClient = delayedWriter(client, oneWay);
    client.on("data", (chunk) => {
      if (serverSpokeLast) roundTrips++;
      serverSpokeLast = false;
      toService(chunk);
    });
    service.on("data", (chunk) => {
      serverSpokeLast = true;
      toClient(chunk);
    });
    const closeBoth = () => {
      // Whatever is still in flight arrives first, as it would over a real network.
      setTimeout(() => {
        client.destroy();
        service.destroy();
        sockets.delete(client);
        sockets.delete(service);
      }, oneWay);
    };
    client.on("close", closeBoth).on("error", closeBoth);
    service.on("close", closeBoth).on("error", closeBoth);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address() as net.AddressInfo;

  return {
    host: "127.0.0.1",
    port: address.port,
    roundTrips: () => roundTrips,
    resetRoundTrips: () => {
      roundTrips = 0;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The round trip the relay really adds, measured: timers fire late by a fraction of a millisecond, so a
 * nominal 2 ms comes out a little longer. Sends Redis PINGs through a relay in front of Redis; p50 in ms.
 */
export async function measuredRoundTripMs(
  relay: Pick<DelayRelay, "host" | "port">,
  pings = 50,
): Promise<number> {
  const socket = net.connect(relay.port, relay.host);
  socket.setNoDelay(true);
  await once(socket, "connect");
  const times: number[] = [];
  try {
    for (let i = 0; i < pings; i++) {
      const started = performance.now();
      socket.write("PING\r\n");
      await once(socket, "data");
      times.push(performance.now() - started);
    }
  } finally {
    socket.destroy();
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? Number.NaN;
}

/** The same URL with its host and port replaced by the relay's (credentials, path and query kept). */
export function throughRelay(url: string, relay: Pick<DelayRelay, "host" | "port">): string {
  const parsed = new URL(url);
  parsed.hostname = relay.host;
  parsed.port = String(relay.port);
  return parsed.toString();
}
